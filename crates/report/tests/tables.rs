//! Tables render exactly as written out by hand below.

use report::table::{escape_latex, format_number, quote_csv};
use report::{Cell, ReportError, Table, TableFormat};

fn hand_made_table() -> Table {
    let mut table = Table::new(
        "Accuracy & AUC_mean (100% #1)",
        vec!["Learner".to_string(), "AUC".to_string(), "n".to_string()],
    );
    table.push_row(vec![
        Cell::text("naive Bayes, \"NB\""),
        Cell::number(0.87654).bold().with_marker("*"),
        Cell::integer(30),
    ]);
    table.push_row(vec![
        Cell::text("C4.5|J48"),
        Cell::number(-0.00004),
        Cell::integer(-2),
    ]);
    table.push_row(vec![
        Cell::text("SVM"),
        Cell::number(2.26).with_decimals(1),
        Cell::integer(0),
    ]);
    table.push_row(vec![Cell::text("k_NN"), Cell::empty(), Cell::integer(5)]);
    table.push_note("* significant at 0.05");
    table
}

#[test]
fn markdown_is_exact() {
    let expected = "\
**Accuracy & AUC\\_mean (100% #1)**

| Learner | AUC | n |
| --- | ---: | ---: |
| naive Bayes, \"NB\" | **0.877**\\* | 30 |
| C4.5\\|J48 | 0.000 | -2 |
| SVM | 2.3 | 0 |
| k\\_NN |  | 5 |

\\* significant at 0.05
";
    assert_eq!(hand_made_table().to_markdown().unwrap(), expected);
}

#[test]
fn csv_is_exact_with_quoting() {
    let expected = "\
Learner,AUC,n
\"naive Bayes, \"\"NB\"\"\",0.877*,30
C4.5|J48,0.000,-2
SVM,2.3,0
k_NN,,5
";
    assert_eq!(hand_made_table().to_csv().unwrap(), expected);
    assert_eq!(quote_csv("two\nlines"), "\"two\nlines\"");
    assert_eq!(quote_csv("plain"), "plain");
}

#[test]
fn latex_is_exact_with_escaping() {
    let expected = r#"\begin{table}[htbp]
\centering
\caption{Accuracy \& AUC\_mean (100\% \#1)}
\begin{tabular}{lrr}
\toprule
Learner & AUC & n \\
\midrule
naive Bayes, "NB" & \textbf{0.877}\textsuperscript{*} & 30 \\
C4.5|J48 & 0.000 & $-$2 \\
SVM & 2.3 & 0 \\
k\_NN &  & 5 \\
\bottomrule
\end{tabular}
\par\smallskip{\footnotesize * significant at 0.05}
\end{table}
"#;
    assert_eq!(hand_made_table().to_latex().unwrap(), expected);
    assert_eq!(
        escape_latex(r"a~b^c\d$e{f}"),
        r"a\textasciitilde{}b\textasciicircum{}c\textbackslash{}d\$e\{f\}"
    );
}

#[test]
fn render_dispatches_on_format() {
    let table = hand_made_table();
    assert_eq!(
        table.render(TableFormat::Csv).unwrap(),
        table.to_csv().unwrap()
    );
    assert_eq!(TableFormat::Latex.extension(), "tex");
}

#[test]
fn numbers_are_formatted_with_fixed_decimals() {
    assert_eq!(format_number(f64::NAN, 3), "NaN");
    assert_eq!(format_number(f64::INFINITY, 3), "inf");
    assert_eq!(format_number(f64::NEG_INFINITY, 3), "-inf");
    assert_eq!(format_number(-0.0004, 3), "0.000");
    assert_eq!(format_number(-0.0016, 3), "-0.002");
    assert_eq!(format_number(12.0, 0), "12");
}

#[test]
fn a_row_of_the_wrong_length_is_an_error_naming_it() {
    let mut table = hand_made_table();
    table.push_row(vec![Cell::text("short")]);
    let error = table.to_markdown().unwrap_err();
    assert!(matches!(
        error,
        ReportError::RowLength {
            row: 4,
            got: 1,
            expected: 3,
            ..
        }
    ));
    assert!(error.to_string().contains("row 4 has 1 cells"));
    let empty = Table::new("none", Vec::new());
    assert!(empty.to_csv().is_err());
}

#[test]
fn html_is_exact_with_escaping() {
    let expected = "\
<table>
<caption>Accuracy &amp; AUC_mean (100% #1)</caption>
<thead><tr><th>Learner</th><th class=\"number\">AUC</th><th class=\"number\">n</th></tr></thead>
<tbody>
<tr><td>naive Bayes, &quot;NB&quot;</td><td class=\"number\"><strong>0.877</strong>*</td><td class=\"number\">30</td></tr>
<tr><td>C4.5|J48</td><td class=\"number\">0.000</td><td class=\"number\">-2</td></tr>
<tr><td>SVM</td><td class=\"number\">2.3</td><td class=\"number\">0</td></tr>
<tr><td>k_NN</td><td class=\"number\"></td><td class=\"number\">5</td></tr>
</tbody>
</table>
<p class=\"note\">* significant at 0.05</p>
";
    assert_eq!(hand_made_table().to_html().unwrap(), expected);
}

#[test]
fn html_page_collects_tables_images_and_links() {
    let mut page = report::HtmlPage::new("Results <Aslan>");
    page.heading("Error & AUC");
    page.table(&hand_made_table()).unwrap();
    page.image("plots/roc.svg", "ROC \"iris\"");
    page.link("tables/auc.csv", "CSV");
    let html = page.render();
    assert!(html.starts_with("<!DOCTYPE html>\n"));
    assert!(html.contains("<title>Results &lt;Aslan&gt;</title>"));
    assert!(html.contains("<h2>Error &amp; AUC</h2>"));
    assert!(html.contains(&hand_made_table().to_html().unwrap()));
    assert!(html.contains(
        "<figure><img src=\"plots/roc.svg\" alt=\"ROC &quot;iris&quot;\"><figcaption>ROC &quot;iris&quot;</figcaption></figure>"
    ));
    assert!(html.contains("<p><a href=\"tables/auc.csv\">CSV</a></p>"));
    assert!(html.ends_with("</body>\n</html>\n"));
}
