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

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_is_never_replaced_by_a_file() {
    let s = Scratch::new("special");
    // A link to /dev/null stands for the device (a temporary file beside /dev/null
    // itself would be one in /dev).
    let targets = test_support::special_files(&s.0, "wd");
    for target in &targets {
        let e = write_atomic(target, b"weights").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("is not a regular file"), "{e}");
        let tmp = s.0.join("made-elsewhere");
        fs::write(&tmp, b"a plot").unwrap();
        assert!(persist(&tmp, target).is_err());
        assert!(!tmp.exists(), "persist removes its temporary file on an error");
        // Still the link or the FIFO, and no temporary file left beside it.
        let kind = fs::symlink_metadata(target).unwrap().file_type();
        assert!(kind.is_symlink() || !kind.is_file(), "{}", target.display());
    }
    let names = s.names();
    let mut want: Vec<String> = targets
        .iter()
        .map(|t| t.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    want.sort();
    assert_eq!(names, want);
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
fn stale_temporary_files_of_dead_writers_are_removed_and_nothing_else() {
    let s = Scratch::new("stale");
    // A process that has ended: its PID names no running process.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let me = std::process::id();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(STALE_TEMP_SECONDS + 5);
    let make = |name: &str, when: Option<std::time::SystemTime>| {
        let f = File::create(s.0.join(name)).unwrap();
        if let Some(t) = when {
            f.set_modified(t).unwrap();
        }
    };
    make(&format!("net.wd.tmp{dead}-0"), Some(old)); // removed
    make(&format!("net.wd.tmp{dead}-1"), None); // written just now: kept
    make(&format!("net.wd.tmp{me}-0"), Some(old)); // this process's own
    make("net.wd.tmp1-0", Some(old)); // PID 1 is running
    make(&format!("net.wd.tmp{dead}"), Some(old)); // not the AtomicFile pattern
    make(&format!("net.wd.tmp{dead}-x"), Some(old));
    make("net.wd", Some(old));
    fs::create_dir(s.0.join(format!("dir.tmp{dead}-2"))).unwrap();
    let removed = remove_stale_temps(&s.0).unwrap();
    assert_eq!(removed, vec![s.0.join(format!("net.wd.tmp{dead}-0"))]);
    let mut kept = vec![
        format!("dir.tmp{dead}-2"),
        "net.wd".to_string(),
        format!("net.wd.tmp{dead}"),
        format!("net.wd.tmp{dead}-1"),
        format!("net.wd.tmp{dead}-x"),
        format!("net.wd.tmp{me}-0"),
        "net.wd.tmp1-0".to_string(),
    ];
    kept.sort();
    assert_eq!(s.names(), kept);
    // An uncommitted writer of this process is never touched.
    let w = AtomicFile::create(s.0.join("live")).unwrap();
    assert!(remove_stale_temps(&s.0).unwrap().is_empty());
    assert!(w.temp_path().exists());
    assert_eq!(temp_writer("a.b.tmp123-4"), Some(123));
    assert_eq!(temp_writer("a.tmp-4"), None);
    assert_eq!(temp_writer("a.tmp99999999999-4"), None, "no u32");
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

mod mapped {
    use super::Scratch;
    use crate::mmap::{AnonMap, HeaderSpec, MapErrorKind, MappedFile};

    const SPEC: HeaderSpec<'static> = HeaderSpec {
        what: "test file",
        magic: b"TESTFMT\0",
        size: 24,
        version_at: 8,
        version: 2,
        header_size_at: Some(12),
    };

    /// A file of SPEC's format: header (magic, version, header size, count, checksum)
    /// and `count` 4-byte records.
    fn file(version: u32, header_size: u32, count: u32, records: usize) -> Vec<u8> {
        let mut b = b"TESTFMT\0".to_vec();
        b.extend_from_slice(&version.to_le_bytes());
        b.extend_from_slice(&header_size.to_le_bytes());
        b.extend_from_slice(&count.to_le_bytes());
        b.extend_from_slice(&0xABCDu32.to_le_bytes());
        b.extend(std::iter::repeat_n(7u8, 4 * records));
        b
    }

    /// Opens `bytes` written as `name`, checks it like a reader of SPEC, and returns
    /// the error text (the path is replaced by `FILE`).
    fn check(dir: &Scratch, name: &str, bytes: &[u8]) -> Result<(), String> {
        let path = dir.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        let text = |e: crate::mmap::MapError| e.to_string().replace(&path.display().to_string(), "FILE");
        let f = MappedFile::open(&path).map_err(text)?;
        let h = f.header(&SPEC).map_err(text)?;
        let count = h.u32_at(16);
        f.expect_len(24, u64::from(count), 4, format!("{count} records"))
            .map_err(text)?;
        h.expect_u32(20, "tag", 0xABCD).map_err(text)?;
        h.expect_checksum(16, 0x0000_ABCD_0000_0000 | u64::from(count))
            .map_err(text)
    }

    #[test]
    fn header_checks_name_the_file_and_the_problem() {
        let dir = Scratch::new("mmap-header");
        assert_eq!(check(&dir, "ok", &file(2, 24, 3, 3)), Ok(()));
        let cases: [(&str, Vec<u8>, &str); 6] = [
            (
                "magic",
                b"OTHERFMT and more bytes to fill".to_vec(),
                "not a test file (no TESTFMT header)",
            ),
            (
                "short",
                b"TESTFMT\0".to_vec(),
                "not a test file (no TESTFMT header)",
            ),
            (
                "version",
                file(3, 24, 0, 0),
                "format version 3 is not supported (this program reads version 2)",
            ),
            ("header-size", file(2, 16, 0, 0), "header size 16 (expected 24)"),
            (
                "truncated",
                file(2, 24, 3, 2),
                "the header announces 3 records (36 bytes) but the file has 32 bytes (truncated or corrupt)",
            ),
            (
                "huge",
                file(2, 24, u32::MAX, 0),
                "the header announces 4294967295 records (17179869204 bytes) but the file has 24 bytes \
                 (truncated or corrupt)",
            ),
        ];
        for (name, bytes, want) in cases {
            assert_eq!(check(&dir, name, &bytes), Err(format!("FILE: {want}")), "{name}");
        }
        let mut bad = file(2, 24, 1, 1);
        bad[16] = 0; // count 0 with one record: wrong length first
        assert!(check(&dir, "len", &bad)
            .unwrap_err()
            .contains("announces 0 records"));
        let sum = MapErrorKind::Checksum {
            stored: 1,
            computed: 0xFF,
        };
        assert_eq!(
            sum.to_string(),
            "checksum mismatch (stored 0000000000000001, computed 00000000000000ff): the file is corrupt"
        );
    }

    #[test]
    fn reads_are_bounds_checked_and_missing_files_named() {
        let dir = Scratch::new("mmap-bounds");
        let path = dir.0.join("empty");
        std::fs::write(&path, b"").unwrap();
        let f = MappedFile::open(&path).unwrap();
        assert!(f.is_empty() && f.bytes().is_empty());
        let e = f.slice(4, 8).unwrap_err();
        assert!(matches!(
            e.kind,
            MapErrorKind::Beyond {
                offset: 4,
                len: 8,
                file_len: 0
            }
        ));
        assert_eq!(
            e.to_string(),
            format!(
                "{}: record at byte 4 (+8) lies beyond the end of the 0-byte file",
                path.display()
            )
        );
        std::fs::write(&path, b"0123456789").unwrap();
        let f = MappedFile::open(&path).unwrap();
        assert_eq!(f.slice(2, 3).unwrap(), b"234");
        assert!(f.slice(8, 3).is_err() && f.slice(u64::MAX, 2).is_err());
        let missing = dir.0.join("missing");
        let e = MappedFile::open(&missing).unwrap_err();
        assert!(matches!(
            e.kind,
            MapErrorKind::Io {
                action: "cannot open",
                ..
            }
        ));
        assert!(e
            .to_string()
            .starts_with(&format!("{}: cannot open: ", missing.display())));
        // A directory is named as one (mmap itself would say "no such device").
        let e = MappedFile::open(&dir.0).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: cannot map: is a directory", dir.0.display())
        );
        #[cfg(unix)]
        {
            let e = MappedFile::open("/dev/null").unwrap_err();
            assert!(e
                .to_string()
                .ends_with("not a regular file (only files can be mapped)"));
        }
    }

    #[test]
    fn anonymous_memory_is_zeroed_and_writable() {
        for populate in [false, true] {
            let mut m = AnonMap::zeroed(10_000, populate).unwrap();
            assert_eq!(m.len(), 10_000);
            assert!(m.iter().all(|&b| b == 0));
            m[9_999] = 5;
            assert_eq!(m[9_999], 5);
        }
        assert_eq!(AnonMap::zeroed(0, false).unwrap().len(), 1);
    }
}

#[test]
fn keep_puts_a_new_file_in_place_and_leaves_no_temporary() {
    let s = Scratch::new("keep-new");
    let target = s.0.join("out.bin");
    let bytes = pattern(70_000);
    write_atomic_with(&target, &bytes, Existing::Keep).unwrap();
    assert_eq!(fs::read(&target).unwrap(), bytes);
    assert_eq!(s.names(), ["out.bin"]);
}

#[test]
fn keep_leaves_a_file_that_appeared_during_the_write() {
    let s = Scratch::new("keep-appeared");
    let target = s.0.join("out.bin");
    let mut f = AtomicFile::create(&target).unwrap();
    f.write_all(&pattern(50_000)).unwrap();
    // The user's file, made while the job was writing.
    fs::write(&target, b"mine").unwrap();
    let e = f.commit_with(Existing::Keep).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
    assert!(e.to_string().contains("use --force to replace it"), "{e}");
    assert_eq!(fs::read(&target).unwrap(), b"mine");
    assert_eq!(s.names(), ["out.bin"], "the temporary file is removed");
    // A symbolic link (even a dangling one) is a file the user made too.
    #[cfg(unix)]
    {
        let link = s.0.join("link.bin");
        std::os::unix::fs::symlink(s.0.join("nowhere"), &link).unwrap();
        let e = write_atomic_with(&link, b"x", Existing::Keep).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert!(!s.0.join("nowhere").exists());
    }
}

#[test]
fn replace_and_plain_commit_replace_a_file_there() {
    let s = Scratch::new("replace");
    let target = s.0.join("out.bin");
    fs::write(&target, b"old").unwrap();
    write_atomic_with(&target, b"new", Existing::Replace).unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"new");
    write_atomic(&target, b"newer").unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"newer");
    assert_eq!(Existing::replace_if(true), Existing::Replace);
    assert_eq!(Existing::replace_if(false), Existing::Keep);
    assert_eq!(s.names(), ["out.bin"]);
}

#[test]
#[cfg(target_os = "linux")]
fn only_a_filesystem_without_hard_links_falls_back_to_a_rename() {
    let kind = |n| no_hard_links(&io::Error::from_raw_os_error(n));
    // Linux's numbers: EPERM (FAT), EOPNOTSUPP, EXDEV, EMLINK: no link possible here.
    for n in [1, 95, 18, 31] {
        assert!(kind(n), "errno {n}");
    }
    // EIO, ENOSPC, EDQUOT, EROFS: a rename would fail as well; the error is reported.
    for n in [5, 28, 122, 30] {
        assert!(!kind(n), "errno {n}");
    }
}
