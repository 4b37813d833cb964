//! `experiments datasets FILE` on the files a careful user might still get wrong (issue 28):
//! semicolons, tabs and lone-CR line ends are read; another separator, UTF-16, Latin-1, NUL
//! bytes and a first line of data are refused naming what was found; a huge cell gives a short
//! message; digit-coded and mostly-`NA` columns are named in a notice with how to declare
//! them; a missing dataset names where it was looked for and the closest shipped names. The
//! files are written here by hand; every value asserted is one written.

mod bad_input;

use bad_input::{accepted, assert_words, experiments, refused, scratch, write};

#[test]
fn semicolons_tabs_and_lone_carriage_returns_are_read() {
    let folder = scratch("datasets_read");
    let text = "x,y,class\n1.5,2,a\n3,4.25,b\n5,6,a\n";
    for (name, text) in [
        ("semicolons.csv", text.replace(',', ";")),
        ("tabs.csv", text.replace(',', "\t")),
        ("lone_cr.csv", text.replace('\n', "\r")),
    ] {
        let file = write(&folder, name, text);
        let output = accepted(&["datasets", file.to_str().unwrap()]);
        // 3 instances, 2 numeric attributes, 0 nominal, 2 classes, 0 missing.
        let row = output.lines().find(|line| line.contains(name)).unwrap();
        let counts: Vec<&str> = row.split_whitespace().skip(1).take(5).collect();
        assert_eq!(counts, ["3", "2", "0", "2", "0"], "{name}: {output}");
    }
}

#[test]
fn unreadable_files_are_refused_naming_what_was_found() {
    let folder = scratch("datasets_refused");
    let utf16: Vec<u8> = "x,class\n1,yes\n2,no\n"
        .bytes()
        .flat_map(|b| [b, 0])
        .collect();
    let cell = "z".repeat(5 << 20);
    let cases: Vec<(&str, Vec<u8>, Vec<&str>)> = vec![
        (
            "pipes.csv",
            b"x|y|class\n1|2|a\n".to_vec(),
            vec!["no comma, semicolon or tab", "'|'"],
        ),
        (
            "utf16.csv",
            utf16,
            vec!["UTF-16 (little-endian, without a byte-order mark)", "iconv"],
        ),
        (
            "latin1.csv",
            b"x,class\n1,caf\xe9\n".to_vec(),
            vec![":2:6:", "0xe9", "Windows-1252"],
        ),
        (
            "nul.csv",
            b"x,class\n1,yes\n2\0,no\n".to_vec(),
            vec![":3:2:", "NUL byte"],
        ),
        (
            "no_header.csv",
            b"5.1,3.5,a\n4.9,3.0,b\n".to_vec(),
            vec![":1:", "row of data"],
        ),
        (
            "huge_cell.csv",
            format!("x,class\n1,a\n{cell},b\n2,a\n").into_bytes(),
            vec![":3:1:", "(5242880 characters in all)"],
        ),
    ];
    for (name, bytes, words) in cases {
        let file = write(&folder, name, bytes);
        let message = refused(&["datasets", file.to_str().unwrap()]);
        assert_words(&message, &[&[name][..], &words].concat());
        assert!(
            message.len() < 3_000,
            "{name}: a message of {} bytes",
            message.len()
        );
    }
}

#[test]
fn digit_codes_and_mostly_missing_columns_are_named_with_how_to_declare_them() {
    let folder = scratch("datasets_notices");
    let mut text = String::from("size,spots,area,class\n");
    for row in 0..30 {
        text.push_str(&format!(
            "{},{},{}.5,{}\n",
            row % 6 + 1,
            row % 2,
            row,
            row % 3
        ));
    }
    let file = write(&folder, "codes.csv", text);
    let output = accepted(&["datasets", file.to_str().unwrap()]);
    assert_words(
        &output,
        &[
            "notice: columns 'size' (6 values), 'spots' (2 values)",
            "--nominal 'size' --nominal 'spots'",
        ],
    );
    let declared = ["--nominal", "size", "--nominal", "spots"];
    let output = accepted(&[&["datasets", file.to_str().unwrap()][..], &declared].concat());
    assert!(!output.contains("notice:"), "{output}");
    let values = ["NA", "NA", "n/a", "NA", "NA", "NA", "5", "6", "7", "8"];
    let mut text = String::from("x,class\n");
    for (row, value) in values.iter().enumerate() {
        text.push_str(&format!("{value},{}\n", ["a", "b"][row % 2]));
    }
    let file = write(&folder, "mostly_na.csv", text);
    let output = accepted(&["datasets", file.to_str().unwrap()]);
    assert_words(
        &output,
        &["notice: column 'x' is read as nominal", "--missing 'NA'"],
    );
}

#[test]
fn a_missing_dataset_names_where_it_looked_and_the_closest_names() {
    let message = refused(&["datasets", "glas"]);
    assert_words(
        &message,
        &[
            "'glas' is neither",
            "looked for",
            "glas",
            "the closest shipped names: glass",
        ],
    );
    assert!(
        !message.contains("kr-vs-kp"),
        "not every shipped name: {message}"
    );
}

#[test]
fn a_folder_given_as_a_dataset_is_named_as_a_folder() {
    let folder = scratch("datasets_folder");
    let message = refused(&["datasets", folder.to_str().unwrap()]);
    assert_words(
        &message,
        &[
            folder.to_str().unwrap(),
            "a folder; give a dataset file in it",
        ],
    );
}

#[test]
fn solar_flares_digit_coded_categories_are_named_by_the_datasets_command() {
    // solar-flare as a file of one's own: the catalog declares its 12 attributes nominal; 10 of
    // them are digits (the other two letters).
    let folder = scratch("datasets_flare");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let copy = folder.join("solar-flare-2.csv");
    std::fs::copy(root.join("datasets/solar-flare-1.csv"), &copy).unwrap();
    let output = accepted(&["datasets", copy.to_str().unwrap()]);
    for column in [
        "activity",
        "evolution",
        "previous24",
        "hist_complex",
        "comp_on_this_",
        "area",
        "area_of_largest",
        "C_class",
        "M_class",
        "X_class",
    ] {
        assert_words(
            &output,
            &[&format!("'{column}' ("), &format!("--nominal '{column}'")],
        );
    }
    assert!(!output.contains("'largest_spot_size' ("), "{output}");
}

/// The suggested `experiments datasets ...` command of the notice of `output` that holds
/// `marker`, between its backquotes.
fn suggested_command<'a>(output: &'a str, marker: &str) -> &'a str {
    let line = output.lines().find(|line| line.contains(marker)).unwrap();
    let start = line.find("`experiments datasets ").unwrap() + 1;
    let end = start + line[start..].find('`').unwrap();
    &line[start..end]
}

#[test]
fn suggested_commands_quote_every_argument_and_paste_as_they_are() {
    let folder = scratch("datasets_quoted");
    let mut text = String::from("age,fasting blood sugar > 120,it's,num\n");
    for row in 0..30 {
        text.push_str(&format!(
            "{},{},{},{}\n",
            20 + row,
            row % 2,
            row % 3,
            ["a", "b"][row % 2]
        ));
    }
    let file = write(&folder, "heart disease.csv", text);
    let path = file.to_str().unwrap();
    let output = accepted(&["datasets", path]);
    let quoted_file = format!("'{path}'");
    let expected = format!(
        "experiments datasets {quoted_file} --nominal 'fasting blood sugar > 120' --nominal \
         'it'\\''s'"
    );
    assert_eq!(
        suggested_command(&output, "few distinct whole numbers"),
        expected
    );
    assert_words(
        &output,
        &["nominal_columns = [\"fasting blood sugar > 120\", \"it's\"]"],
    );
    // Pasted into a shell, it runs (the binary standing for `experiments`), declares both
    // columns, and creates no file named 120.
    let script = expected.replacen("experiments", env!("CARGO_BIN_EXE_experiments"), 1);
    let pasted = std::process::Command::new("sh")
        .args(["-c", &script])
        .current_dir(&folder)
        .output()
        .unwrap();
    assert!(
        pasted.status.success(),
        "{}",
        String::from_utf8_lossy(&pasted.stderr)
    );
    assert!(!String::from_utf8_lossy(&pasted.stdout).contains("notice:"));
    assert!(!folder.join("120").exists());
}

#[test]
fn many_code_columns_list_twenty_and_say_how_many_more() {
    let folder = scratch("datasets_many_codes");
    let names: Vec<String> = (1..=30).map(|c| format!("c{c}")).collect();
    let mut text = format!("{},class\n", names.join(","));
    for row in 0..12 {
        let codes: Vec<String> = (0..30).map(|c| ((row + c) % 3).to_string()).collect();
        text.push_str(&format!("{},{}\n", codes.join(","), ["a", "b"][row % 2]));
    }
    let file = write(&folder, "codes.csv", text);
    let output = accepted(&["datasets", file.to_str().unwrap()]);
    let listed: Vec<String> = names[..20].iter().map(|n| format!("\"{n}\"")).collect();
    let flags: Vec<String> = names[..20]
        .iter()
        .map(|n| format!("--nominal '{n}'"))
        .collect();
    assert_words(
        &output,
        &[
            "'c20' (3 values) and 10 more hold only a few distinct whole numbers",
            &format!(
                "nominal_columns = [{}] (the first 20 of the 30 columns; add the other 10 likewise)",
                listed.join(", ")
            ),
            &format!("{}` (the first 20 of the 30 columns", flags.join(" ")),
        ],
    );
    assert!(!output.contains("c21\""), "{output}");
}

#[test]
fn a_class_named_column_and_look_alike_class_values_get_a_notice() {
    let folder = scratch("datasets_class_notices");
    let mut text = String::from("Class,age,num\n");
    for row in 0..12 {
        let value = ["yes", " yes", "no", "No "][row % 4];
        text.push_str(&format!("{},{}.5,{value}\n", ["a", "b"][row % 2], 20 + row));
    }
    let file = write(&folder, "classes.csv", text);
    let path = file.to_str().unwrap();
    let output = accepted(&["datasets", path]);
    assert_words(
        &output,
        &[
            "notice: column 1 is named 'Class', but the class is read from the last column, \
             'num' (the default); if 'Class' is the class, say so (a config's dataset entry: \
             class_column = \"Class\"",
            &format!("`experiments datasets '{path}' --class 'Class'`"),
            "notice: class values 'yes' and ' yes', 'no' and 'No ' differ only by surrounding \
             spaces or case, and are read as different classes",
        ],
    );
    // 4 classes as read; with --class Class, 2 classes and no class notice.
    assert!(output.contains("       4 "), "{output}");
    let output = accepted(&["datasets", path, "--class", "Class"]);
    assert!(!output.contains("notice: column 1"), "{output}");
    assert!(!output.contains("notice: class values"), "{output}");
    // A run's check prints the same notices; the config's class_column is read.
    let config = |entry: &str| {
        let text = format!(
            "name = \"classes\"\ndatasets = [{entry}]\nprotocol = {{ kind = \"stratified_kfold\", \
             folds = 2 }}\n[[learners]]\nkind = \"naive_bayes\"\n"
        );
        let path = write(&folder, "classes.toml", text);
        path.to_str().unwrap().to_string()
    };
    let results = folder.join("results");
    let results = results.to_str().unwrap();
    let checked = config("\"classes.csv\"");
    let output = experiments(&["--check", "--config", &checked, "--results", results]);
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{log}");
    assert_words(
        &log,
        &[
            "note: dataset 'classes': column 1 is named 'Class'",
            "class values 'yes' and ' yes'",
        ],
    );
    let checked = config("{ name = \"classes.csv\", class_column = \"Class\" }");
    let output = experiments(&["--check", "--config", &checked, "--results", results]);
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{log}");
    assert!(!log.contains("column 1 is named"), "{log}");
    let checked = config("{ name = \"classes.csv\", class_column = \"klass\" }");
    let message = refused(&["--check", "--config", &checked, "--results", results]);
    assert_words(
        &message,
        &["class column 'klass' is not a column; columns are: Class, age, num"],
    );
    let checked = config("{ name = \"pima\", class_column = \"class\" }");
    let message = refused(&["--check", "--config", &checked, "--results", results]);
    assert_words(
        &message,
        &["class_column and allow_numeric_class are for a file of your own"],
    );
}

#[test]
fn the_datasets_table_lists_class_counts_in_class_order_not_file_order() {
    let folder = scratch("datasets_class_order");
    // Classes first seen in the order 0, 2, 1, then 9 more 0s, 10 more 2s and 8 more 1s.
    let classes = [[0; 12].as_slice(), &[2; 10], &[1; 8]].concat();
    let mut text = String::from("a,b,class\n");
    for (row, class) in [0, 2, 1].iter().chain(&classes[3..]).enumerate() {
        text.push_str(&format!("{}.5,{},{class}\n", row % 7, row % 5));
    }
    write(&folder, "ordered.csv", text);
    let config = write(
        &folder,
        "ordered.toml",
        "name = \"ordered\"\ndatasets = [\"ordered.csv\"]\nprotocol = { kind = \
         \"stratified_kfold\", folds = 2 }\n[[learners]]\nkind = \"naive_bayes\"\n",
    );
    let results = folder.join("results");
    let output = experiments(&[
        "--config",
        config.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let table = std::fs::read_to_string(results.join("ordered/tables/datasets.csv")).unwrap();
    assert_words(&table, &["ordered,30,2,\"0 10, 1 9, 2 11\",2,none"]);
}
