//! A minimal ARFF reader for the C4.5 tests and examples (the `data` crate's full reader is
//! written separately): nominal and numeric attributes, `?` for missing, the last attribute is
//! the class, and an optional trailing `{weight}` field gives the instance weight (as in Weka).

use data::{Attribute, Dataset, Schema};

fn unquote(text: &str) -> String {
    let text = text.trim();
    if text.len() >= 2
        && ((text.starts_with('\'') && text.ends_with('\''))
            || (text.starts_with('"') && text.ends_with('"')))
    {
        text[1..text.len() - 1].to_string()
    } else {
        text.to_string()
    }
}

fn split_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    for character in line.chars() {
        match quote {
            Some(q) if character == q => {
                quote = None;
                current.push(character);
            }
            Some(_) => current.push(character),
            None if character == '\'' || character == '"' => {
                quote = Some(character);
                current.push(character);
            }
            None if character == ',' => fields.push(unquote(&std::mem::take(&mut current))),
            None => current.push(character),
        }
    }
    fields.push(unquote(&current));
    fields
}

/// Parses ARFF text into a dataset whose class is the last attribute.
pub fn parse_arff(name: &str, text: &str) -> Dataset {
    let mut attributes: Vec<Attribute> = Vec::new();
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut in_data = false;
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        if in_data {
            rows.push(split_fields(line));
            continue;
        }
        let lower = line.to_ascii_lowercase();
        if lower.starts_with("@data") {
            in_data = true;
        } else if lower.starts_with("@attribute") {
            let rest = line["@attribute".len()..].trim();
            let (attribute_name, kind) = if let Some(stripped) = rest.strip_prefix('\'') {
                let end = stripped.find('\'').expect("closing quote");
                (stripped[..end].to_string(), stripped[end + 1..].trim())
            } else {
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .expect("attribute type");
                (rest[..end].to_string(), rest[end..].trim())
            };
            if let Some(values) = kind.strip_prefix('{') {
                let values = values.trim_end().trim_end_matches('}');
                attributes.push(Attribute::nominal(attribute_name, split_fields(values)));
            } else {
                attributes.push(Attribute::numeric(attribute_name));
            }
        }
    }
    let class = attributes.pop().expect("a class attribute");
    let class_values = class.values().expect("a nominal class").to_vec();
    let mut columns = vec![Vec::with_capacity(rows.len()); attributes.len()];
    let mut classes = Vec::with_capacity(rows.len());
    let mut weights = Vec::with_capacity(rows.len());
    for row in &rows {
        let weight = match row.last() {
            Some(field) if row.len() > attributes.len() + 1 && field.starts_with('{') => field
                .trim_matches(|c| c == '{' || c == '}')
                .parse()
                .expect("a weight"),
            _ => 1.0,
        };
        weights.push(weight);
        for (index, attribute) in attributes.iter().enumerate() {
            let field = row[index].as_str();
            let value = if field == "?" {
                f64::NAN
            } else if let Some(values) = attribute.values() {
                values
                    .iter()
                    .position(|v| v == field)
                    .expect("a declared value") as f64
            } else {
                field.parse().expect("a number")
            };
            columns[index].push(value);
        }
        let label = row[attributes.len()].as_str();
        classes.push(
            class_values
                .iter()
                .position(|v| v == label)
                .expect("a class") as u32,
        );
    }
    let schema = Schema {
        attributes,
        class_name: class.name,
        class_values,
    };
    Dataset::new(name, schema, columns, classes, Some(weights)).expect("a consistent dataset")
}
