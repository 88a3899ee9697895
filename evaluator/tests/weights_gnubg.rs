//! Weights files against gnubg's own: Debian's gnubg.wd and its makeweights tool.

mod common;

use std::process::Command;

use common::{have as gnubg_available, WD as GNUBG_WD};
use evaluator::weights::Weights;

const MAKEWEIGHTS: &str = "/usr/games/makeweights";

#[test]
fn gnubg_wd_loads_and_writes_back_byte_identical() {
    if !gnubg_available(&[GNUBG_WD]) {
        return;
    }
    let original = std::fs::read(GNUBG_WD).unwrap();
    let w = Weights::load(GNUBG_WD).unwrap();
    assert_eq!(w.version, "1.00");
    assert_eq!(
        w.nets.iter().map(|n| n.hidden).collect::<Vec<_>>(),
        [128, 128, 128, 16, 16, 8]
    );
    assert!(!w.fixed_pip_loss());
    assert_eq!(w.to_binary(), original);
}

#[test]
fn makeweights_turns_our_text_into_the_same_binary() {
    if !gnubg_available(&[GNUBG_WD, MAKEWEIGHTS]) {
        return;
    }
    let original = std::fs::read(GNUBG_WD).unwrap();
    let w = Weights::load(GNUBG_WD).unwrap();
    let dir = std::env::temp_dir().join(format!("bgkit-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = dir.join("gnubg.weights");
    let out = dir.join("gnubg.wd");
    w.save(&text, evaluator::weights::WeightsFormat::Text).unwrap();
    let status = Command::new(MAKEWEIGHTS)
        .arg("-f")
        .arg(&out)
        .arg(&text)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "makeweights: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        original,
        "makeweights output differs from gnubg.wd"
    );
    // And our text reads back to the same nets, and writes the same text again.
    let again = Weights::load(&text).unwrap();
    assert_eq!(again.to_binary(), original);
    assert_eq!(again.to_text(), std::fs::read_to_string(&text).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}
