//! A minimal Apache Parquet writer for tidy result tables (text, integer and real columns, no
//! missing values), so users can load per-fold results in pandas, polars or R without a CSV
//! parse. One row group, one uncompressed PLAIN-encoded data page per column, the footer in
//! Thrift's compact protocol, as the Parquet format specification describes. About 200 lines
//! here against some hundred thousand for the polars or arrow writers, which this workspace
//! otherwise does not need.

use crate::ReportError;

/// One column of a table to write.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    /// UTF-8 strings (Parquet BYTE_ARRAY annotated as UTF8).
    Text(Vec<String>),
    /// 64-bit integers (Parquet INT64).
    Integer(Vec<i64>),
    /// 64-bit floats (Parquet DOUBLE).
    Real(Vec<f64>),
}

impl Column {
    fn len(&self) -> usize {
        match self {
            Column::Text(values) => values.len(),
            Column::Integer(values) => values.len(),
            Column::Real(values) => values.len(),
        }
    }

    /// Parquet physical type code.
    fn physical_type(&self) -> i32 {
        match self {
            Column::Text(_) => 6,    // BYTE_ARRAY
            Column::Integer(_) => 2, // INT64
            Column::Real(_) => 5,    // DOUBLE
        }
    }

    /// The PLAIN encoding of the values.
    fn plain(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        match self {
            Column::Text(values) => {
                for value in values {
                    bytes.extend_from_slice(&(value.len() as u32).to_le_bytes());
                    bytes.extend_from_slice(value.as_bytes());
                }
            }
            Column::Integer(values) => {
                for value in values {
                    bytes.extend_from_slice(&value.to_le_bytes());
                }
            }
            Column::Real(values) => {
                for value in values {
                    bytes.extend_from_slice(&value.to_le_bytes());
                }
            }
        }
        bytes
    }
}

/// Thrift compact protocol field and element types.
const I32: u8 = 5;
const I64: u8 = 6;
const BINARY: u8 = 8;
const LIST: u8 = 9;
const STRUCT: u8 = 12;

/// A writer of Thrift compact-protocol structs.
#[derive(Default)]
struct Compact {
    bytes: Vec<u8>,
    last_field: Vec<i16>,
}

impl Compact {
    fn varint(&mut self, mut value: u64) {
        loop {
            let byte = (value & 0x7F) as u8;
            value >>= 7;
            if value == 0 {
                self.bytes.push(byte);
                return;
            }
            self.bytes.push(byte | 0x80);
        }
    }

    fn zigzag(&mut self, value: i64) {
        self.varint(((value << 1) ^ (value >> 63)) as u64);
    }

    fn field(&mut self, id: i16, kind: u8) {
        let last = self.last_field.last().copied().expect("inside a struct");
        let delta = id - last;
        if (1..=15).contains(&delta) {
            self.bytes.push(((delta as u8) << 4) | kind);
        } else {
            self.bytes.push(kind);
            self.zigzag(i64::from(id));
        }
        *self.last_field.last_mut().expect("inside a struct") = id;
    }

    fn begin(&mut self) {
        self.last_field.push(0);
    }

    fn end(&mut self) {
        self.bytes.push(0);
        self.last_field.pop();
    }

    fn i32_field(&mut self, id: i16, value: i32) {
        self.field(id, I32);
        self.zigzag(i64::from(value));
    }

    fn i64_field(&mut self, id: i16, value: i64) {
        self.field(id, I64);
        self.zigzag(value);
    }

    fn string_field(&mut self, id: i16, value: &str) {
        self.field(id, BINARY);
        self.varint(value.len() as u64);
        self.bytes.extend_from_slice(value.as_bytes());
    }

    fn list_header(&mut self, size: usize, element: u8) {
        if size < 15 {
            self.bytes.push(((size as u8) << 4) | element);
        } else {
            self.bytes.push(0xF0 | element);
            self.varint(size as u64);
        }
    }

    fn struct_field(&mut self, id: i16) {
        self.field(id, STRUCT);
        self.begin();
    }
}

/// The bytes of a Parquet file holding the named columns (all of the same length).
pub fn to_parquet(columns: &[(String, Column)]) -> Result<Vec<u8>, ReportError> {
    let rows = columns.first().map_or(0, |(_, column)| column.len());
    if let Some((name, column)) = columns.iter().find(|(_, column)| column.len() != rows) {
        return Err(ReportError::InvalidInput {
            what: "parquet table".to_string(),
            problem: format!(
                "column '{name}' has {} values where the first column has {rows}",
                column.len()
            ),
        });
    }
    let mut file = b"PAR1".to_vec();
    // (data page offset, size of header + data) per column.
    let mut chunks = Vec::with_capacity(columns.len());
    for (_, column) in columns {
        let data = column.plain();
        let mut header = Compact::default();
        header.begin();
        header.i32_field(1, 0); // DATA_PAGE
        header.i32_field(2, data.len() as i32);
        header.i32_field(3, data.len() as i32);
        header.struct_field(5); // DataPageHeader
        header.i32_field(1, rows as i32);
        header.i32_field(2, 0); // PLAIN
        header.i32_field(3, 3); // RLE (no levels: required columns)
        header.i32_field(4, 3);
        header.end();
        header.end();
        let offset = file.len();
        file.extend_from_slice(&header.bytes);
        file.extend_from_slice(&data);
        chunks.push((offset, header.bytes.len() + data.len()));
    }
    let mut footer = Compact::default();
    footer.begin();
    footer.i32_field(1, 1); // version
    footer.field(2, LIST);
    footer.list_header(columns.len() + 1, STRUCT);
    footer.begin(); // root schema element
    footer.string_field(4, "schema");
    footer.i32_field(5, columns.len() as i32);
    footer.end();
    for (name, column) in columns {
        footer.begin();
        footer.i32_field(1, column.physical_type());
        footer.i32_field(3, 0); // REQUIRED
        footer.string_field(4, name);
        if let Column::Text(_) = column {
            footer.i32_field(6, 0); // converted type UTF8
        }
        footer.end();
    }
    footer.i64_field(3, rows as i64);
    footer.field(4, LIST);
    footer.list_header(1, STRUCT);
    footer.begin(); // the row group
    footer.field(1, LIST);
    footer.list_header(columns.len(), STRUCT);
    for ((name, column), &(offset, size)) in columns.iter().zip(&chunks) {
        footer.begin(); // ColumnChunk
        footer.i64_field(2, offset as i64);
        footer.struct_field(3); // ColumnMetaData
        footer.i32_field(1, column.physical_type());
        footer.field(2, LIST);
        footer.list_header(2, I32);
        footer.zigzag(0); // PLAIN
        footer.zigzag(3); // RLE
        footer.field(3, LIST);
        footer.list_header(1, BINARY);
        footer.varint(name.len() as u64);
        footer.bytes.extend_from_slice(name.as_bytes());
        footer.i32_field(4, 0); // UNCOMPRESSED
        footer.i64_field(5, rows as i64);
        footer.i64_field(6, size as i64);
        footer.i64_field(7, size as i64);
        footer.i64_field(9, offset as i64);
        footer.end();
        footer.end();
    }
    let total: usize = chunks.iter().map(|&(_, size)| size).sum();
    footer.i64_field(2, total as i64);
    footer.i64_field(3, rows as i64);
    footer.end();
    footer.string_field(6, concat!("report ", env!("CARGO_PKG_VERSION")));
    footer.end();
    file.extend_from_slice(&footer.bytes);
    file.extend_from_slice(&(footer.bytes.len() as u32).to_le_bytes());
    file.extend_from_slice(b"PAR1");
    Ok(file)
}
