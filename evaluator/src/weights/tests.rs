use super::*;

fn tiny() -> Weights {
    let nets = NET_INPUTS
        .iter()
        .enumerate()
        .map(|(n, &inputs)| {
            let mut net = Net::zeros(inputs, 4, 5);
            for (k, w) in net.hidden_weights.iter_mut().enumerate() {
                *w = ((k * 7919 + n) % 1000) as f32 / 333.0 - 1.5;
            }
            net.output_thresholds[2] = 0.1 + n as f32;
            net
        })
        .collect();
    Weights {
        version: "1.00".into(),
        nets,
    }
}

#[test]
fn text_and_binary_round_trip_exactly() {
    let w = tiny();
    let text = w.to_text();
    assert_eq!(Weights::from_bytes(text.as_bytes(), "t").unwrap(), w);
    let bin = w.to_binary();
    let back = Weights::from_bytes(&bin, "b").unwrap();
    assert_eq!(back, w);
    assert_eq!(back.to_binary(), bin);
    assert_eq!(Weights::from_bytes(text.as_bytes(), "t").unwrap().to_text(), text);
}

#[test]
fn files_of_other_shapes_load_only_when_allowed() {
    let mut w = tiny();
    w.nets.truncate(2);
    w.nets[0] = Net::zeros(198, 8, 5);
    for bytes in [w.to_text().into_bytes(), w.to_binary()] {
        assert!(Weights::from_bytes(&bytes, "x").is_err());
        assert_eq!(Weights::parse(&bytes, "x", Shapes::Any).unwrap(), w);
    }
}

#[test]
fn a_file_of_fewer_nets_than_six_says_so() {
    let mut w = tiny();
    w.nets.truncate(1);
    for (bytes, name) in [(w.to_text().into_bytes(), "w.weights"), (w.to_binary(), "w.wd")] {
        let e = Weights::from_bytes(&bytes, name).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "{name}: holds 1 net; gnubg's weights have six (contact, race, crashed and \
                 the three pruning nets)"
            )
        );
        assert_eq!(Weights::parse(&bytes, name, Shapes::Any).unwrap(), w);
    }
}

/// Weights built in memory (the Python package's) meet the rules of a file.
#[test]
fn weights_in_memory_are_checked_as_a_file_is() {
    assert_eq!(tiny().check(Shapes::Gnubg), Ok(()));
    let bad = |edit: &dyn Fn(&mut Weights), shapes: Shapes| {
        let mut w = tiny();
        edit(&mut w);
        let e = w.check(shapes).unwrap_err();
        // A file with the same contents is refused with the same reason.
        let file = Weights::parse(&w.to_binary(), "w.wd", shapes);
        if w.version.trim().parse::<f32>().is_ok() && !w.nets.is_empty() {
            assert_eq!(file.unwrap_err().to_string(), format!("w.wd: {e}"));
        }
        e
    };
    let e = bad(&|w| w.nets.truncate(5), Shapes::Gnubg);
    assert!(e.starts_with("holds 5 nets; gnubg's weights have six"), "{e}");
    assert_eq!(
        bad(&|w| w.nets.clear(), Shapes::Any),
        "holds 0 nets; a weights file holds at least one net"
    );
    let e = bad(&|w| w.nets[1] = Net::zeros(214, 4, 3), Shapes::Any);
    assert_eq!(
        e,
        "the race net has 214 inputs and 3 outputs (expected 214 and 5)"
    );
    let e = bad(&|w| w.nets[0] = Net::zeros(200, 4, 5), Shapes::Gnubg);
    assert_eq!(
        e,
        "the contact net has 200 inputs and 5 outputs (expected 250 and 5)"
    );
    let e = bad(&|w| w.nets[2] = Net::zeros(250, 5000, 5), Shapes::Gnubg);
    assert_eq!(e, "the crashed net has 5000 hidden units (1 to 4096)");
    let e = bad(&|w| w.nets[3].beta_hidden = 0.0, Shapes::Gnubg);
    assert_eq!(e, "the prune contact net has invalid sigmoid slopes 0 and 1");
    let e = bad(&|w| w.nets[5].output_thresholds[4] = f32::NAN, Shapes::Gnubg);
    assert!(
        e.starts_with("the prune race net's value #") && e.ends_with("is NaN, not a finite number"),
        "{e}"
    );
    assert_eq!(
        bad(&|w| w.version = "new".into(), Shapes::Gnubg),
        "bad version 'new' (expected a number such as 1.00)"
    );
    let mut net = Net::zeros(198, 8, 3);
    assert_eq!(
        net.check().unwrap_err(),
        "the net has 198 inputs and 3 outputs (expected 198 and 5)"
    );
    net = Net::zeros(198, 8, 5);
    net.hidden_weights[9] = f32::INFINITY;
    assert_eq!(
        net.check().unwrap_err(),
        "the net's value #9 (hidden weight 9) is inf, not a finite number"
    );
    let mut any = tiny();
    any.nets = vec![Net::zeros(198, 8, 5)];
    assert_eq!(any.nets[0].check(), Ok(()));
    assert_eq!(any.check(Shapes::Any), Ok(()));
    assert!(any.check(Shapes::Gnubg).is_err());
}

#[test]
fn seven_decimals_are_kept_when_they_are_exact() {
    assert_eq!(decimal(0.1), "0.1000000");
    assert_eq!(decimal(-3.2585607), "-3.2585607");
    let x = 1.0f32 / 3.0;
    assert_eq!(decimal(x).parse::<f32>().unwrap(), x);
}

#[test]
fn truncated_and_foreign_files_are_rejected_with_reasons() {
    let bin = tiny().to_binary();
    let e = Weights::from_bytes(&bin[..bin.len() - 3], "w.wd")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("w.wd: truncated"), "{e}");
    let e = Weights::from_bytes(b"hello world", "x").unwrap_err().to_string();
    assert!(e.contains("not a gnubg weights file"), "{e}");
    let text = tiny().to_text();
    let cut: String = text.lines().take(50).map(|l| format!("{l}\n")).collect();
    let e = Weights::from_bytes(cut.as_bytes(), "w.weights")
        .unwrap_err()
        .to_string();
    assert!(e.contains("truncated"), "{e}");
    let bad = text.replacen("\n0.", "\nzero", 1);
    let e = Weights::from_bytes(bad.as_bytes(), "w.weights")
        .unwrap_err()
        .to_string();
    assert!(e.contains("is not a number"), "{e}");
    let mut extra = bin.clone();
    extra.extend_from_slice(&[0, 0, 0, 0]);
    assert!(Weights::from_bytes(&extra, "x")
        .unwrap_err()
        .to_string()
        .contains("unexpected bytes"));
}

/// Issue 19: "`.wd`/`.weights` with nan, inf or 1e999 load (opening equity -2.9998)".
#[test]
fn weights_with_nan_inf_or_1e999_are_refused() {
    let mut w = tiny();
    w.nets[2].hidden_thresholds[1] = 12345.5;
    let text = w.to_text();
    let at = text.find("12345.5").unwrap();
    let ln = text[..at].lines().count() + 1;
    for bad in ["nan", "NaN", "inf", "-inf", "1e999", "-1e39"] {
        let line_end = at + text[at..].find('\n').unwrap();
        let edited = format!("{}{bad}{}", &text[..at], &text[line_end..]);
        let e = Weights::from_bytes(edited.as_bytes(), "w.weights")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!("w.weights: line {ln}: '{bad}' in the crashed net is not a finite number")
        );
    }
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let mut w = tiny();
        let (inputs, hidden) = (w.nets[1].inputs, w.nets[1].hidden);
        w.nets[1].output_weights[3] = bad;
        let e = Weights::from_bytes(&w.to_binary(), "w.wd")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "w.wd: the race net's value #{} (output weight 3) is {bad}, not a finite number",
                inputs * hidden + 3
            )
        );
    }
}

#[test]
fn weights_errors_say_no_line_0() {
    // Found by the fuzz suite: a version that is not a number.
    let e = Weights::from_bytes(b"GNU Backgammon 1.0NaN0\n", "w.weights")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 1: bad version in 'GNU Backgammon 1.0NaN0'"),
        "{e}"
    );
    let mut bin = tiny().to_binary();
    bin[4..8].copy_from_slice(&f32::NAN.to_le_bytes());
    let e = Weights::from_bytes(&bin, "w.wd").unwrap_err().to_string();
    assert!(e.contains("bad version number NaN"), "{e}");
    let e = Weights::from_bytes(b"GNU Backgammon 1.00\n", "w.weights")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "w.weights: file ends before the contact net (truncated?)");
}

#[test]
fn save_with_keep_leaves_a_file_there_and_replace_replaces_it() {
    let dir = test_support::Scratch::new("evaluator", "weights-keep");
    let path = dir.join("w.wd");
    std::fs::write(&path, b"mine").unwrap();
    let w = tiny();
    let e = w
        .save_with(&path, WeightsFormat::Binary, fileio::Existing::Keep)
        .unwrap_err();
    assert!(
        matches!(&e, WeightsError::Io { source, .. } if source.kind() == std::io::ErrorKind::AlreadyExists),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with(&format!("{}: appeared", path.display())),
        "{e}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"mine");
    w.save(&path, WeightsFormat::Binary).unwrap();
    assert_eq!(Weights::load_any(&path).unwrap(), w);
    assert_eq!(
        test_support::dir_names(&dir),
        ["w.wd"],
        "no temporary file is left"
    );
}
