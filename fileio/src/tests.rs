use super::*;

/// A scratch directory removed when the test ends (even when it fails).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("fileio-test-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// The names of the files in the directory, sorted.
    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Bytes that are not all alike and span several buffer fills.
fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + i / 251) as u8).collect()
}

#[test]
fn target_appears_only_after_commit_with_exact_bytes() {
    let s = Scratch::new("commit");
    let target = s.0.join("out.bin");
    let bytes = pattern(100_000);
    let mut f = AtomicFile::create(&target).unwrap();
    f.write_all(&bytes[..40_000]).unwrap();
    f.flush().unwrap();
    f.write_all(&bytes[40_000..]).unwrap();
    assert!(!target.exists(), "target must not exist before commit");
    let temp = f.temp_path().to_path_buf();
    assert_eq!(
        temp.parent(),
        target.parent(),
        "temporary file lies beside the target"
    );
    assert!(temp.exists());
    f.commit().unwrap();
    assert_eq!(fs::read(&target).unwrap(), bytes);
    assert!(!temp.exists());
    assert_eq!(s.names(), ["out.bin"]);
}

#[test]
fn uncommitted_writer_leaves_no_temporary_file_and_keeps_the_target() {
    let s = Scratch::new("drop");
    let target = s.0.join("keep.txt");
    fs::write(&target, b"old contents").unwrap();
    {
        let mut f = AtomicFile::create(&target).unwrap();
        f.write_all(b"new contents that never land").unwrap();
        f.sync().unwrap();
    }
    assert_eq!(s.names(), ["keep.txt"]);
    assert_eq!(fs::read(&target).unwrap(), b"old contents");
}

#[test]
fn write_atomic_replaces_an_existing_file() {
    let s = Scratch::new("replace");
    let target = s.0.join("data.json");
    fs::write(&target, vec![b'x'; 5000]).unwrap();
    write_atomic(&target, b"{\"short\": true}\n").unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"{\"short\": true}\n");
    write_atomic(&target, b"").unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"");
    assert_eq!(s.names(), ["data.json"]);
}

#[test]
fn concurrent_writers_of_one_target_use_distinct_temporary_files() {
    let s = Scratch::new("unique");
    let target = s.0.join("t");
    let a = AtomicFile::create(&target).unwrap();
    let b = AtomicFile::create(&target).unwrap();
    assert_ne!(a.temp_path(), b.temp_path());
}

#[test]
fn chosen_temporary_name_replaces_a_stale_one_and_seek_patches_a_header() {
    let s = Scratch::new("chosen");
    let target = s.0.join("db.bd");
    let partial = s.0.join("db.bd.partial");
    fs::write(&partial, b"garbage from a killed run, longer than the output").unwrap();
    let mut f = AtomicFile::with_temp(&target, partial.clone(), 1 << 20).unwrap();
    assert_eq!(f.temp_path(), partial);
    f.write_all(&[0; 4]).unwrap();
    f.write_all(b"body").unwrap();
    f.seek(SeekFrom::Start(0)).unwrap();
    f.write_all(b"HEAD").unwrap();
    f.commit().unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"HEADbody");
    assert_eq!(s.names(), ["db.bd"]);
}

#[test]
fn persist_puts_a_finished_file_in_place() {
    let s = Scratch::new("persist");
    let temp = s.0.join(".chart.tmp.png");
    let target = s.0.join("chart.png");
    fs::write(&target, b"old").unwrap();
    fs::write(&temp, b"new picture").unwrap();
    persist(&temp, &target).unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"new picture");
    assert_eq!(s.names(), ["chart.png"]);
}

#[test]
fn errors_are_plain_io_errors_naming_no_path() {
    let s = Scratch::new("errors");
    let target = s.0.join("no-such-dir").join("out.txt");
    let e = write_atomic(&target, b"x").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::NotFound);
    let text = e.to_string();
    assert!(
        !text.contains("no-such-dir") && !text.contains("out.txt"),
        "{text}"
    );
    let e = persist(s.0.join("missing"), s.0.join("t")).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::NotFound);
    assert!(!e.to_string().contains("missing"));
    assert!(s.names().is_empty());
}
