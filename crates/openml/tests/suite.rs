//! Suite files: task ids separated by spaces, commas or lines, `#` comments; anything else is
//! refused naming the file and line.

use openml::read_suite;

fn suite(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("suite.txt");
    std::fs::write(&path, text).unwrap();
    (temp, path)
}

#[test]
fn ids_are_read_in_order_across_separators_and_comments() {
    let (_temp, path) = suite("# OpenML-CC18, a part\n3, 6 11\n\n12\t# last\n");
    assert_eq!(read_suite(&path).unwrap(), vec![3, 6, 11, 12]);
}

#[test]
fn a_word_that_is_no_id_a_repeated_id_or_no_ids_are_refused() {
    for (text, words) in [
        ("3\n-6\n", vec![":2:", "'-6' is not a task id"]),
        ("3\n18446744073709551616\n", vec![":2:", "not a task id"]),
        (
            "3 6\n3\n",
            vec![":2:", "task 3 is listed twice (first on line 1)"],
        ),
        ("# nothing\n", vec![":1:", "no task ids"]),
    ] {
        let (_temp, path) = suite(text);
        let message = read_suite(&path).unwrap_err().to_string();
        assert!(message.contains(&path.display().to_string()), "{message}");
        for word in words {
            assert!(message.contains(word), "'{word}' in: {message}");
        }
    }
    let message = read_suite(std::path::Path::new("/no/such/suite.txt"))
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("/no/such/suite.txt: cannot read"),
        "{message}"
    );
}
