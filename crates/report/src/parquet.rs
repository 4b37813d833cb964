//! A table as an Apache Parquet file: one row group, one uncompressed PLAIN data page per column,
//! every column nullable (none of its values null), the metadata in Thrift's compact protocol.
//! Enough for any Parquet reader; it writes no statistics, dictionaries or compression.

/// One column's values.
pub enum ParquetValues<'a> {
    /// UTF-8 text (a BYTE_ARRAY column annotated as a string).
    Text(Vec<&'a str>),
    /// 64-bit signed integers.
    Int64(Vec<i64>),
    /// 64-bit floats.
    Float64(Vec<f64>),
}

impl ParquetValues<'_> {
    fn len(&self) -> usize {
        match self {
            ParquetValues::Text(values) => values.len(),
            ParquetValues::Int64(values) => values.len(),
            ParquetValues::Float64(values) => values.len(),
        }
    }

    /// Parquet's physical type: INT64 = 2, DOUBLE = 5, BYTE_ARRAY = 6.
    fn physical_type(&self) -> i32 {
        match self {
            ParquetValues::Text(_) => 6,
            ParquetValues::Int64(_) => 2,
            ParquetValues::Float64(_) => 5,
        }
    }

    /// The values in PLAIN encoding.
    fn plain(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        match self {
            ParquetValues::Text(values) => {
                for value in values {
                    bytes.extend((value.len() as u32).to_le_bytes());
                    bytes.extend(value.as_bytes());
                }
            }
            ParquetValues::Int64(values) => values
                .iter()
                .for_each(|value| bytes.extend(value.to_le_bytes())),
            ParquetValues::Float64(values) => values
                .iter()
                .for_each(|value| bytes.extend(value.to_le_bytes())),
        }
        bytes
    }
}

/// Why a table cannot be written as Parquet.
#[derive(Debug, thiserror::Error)]
pub enum ParquetError {
    /// Columns of different lengths.
    #[error("column '{name}' has {found} values where the first column has {expected}")]
    Ragged {
        /// The column's name.
        name: String,
        /// Its number of values.
        found: usize,
        /// The first column's.
        expected: usize,
    },
    /// A column's page would pass Parquet's 2 GiB page limit.
    #[error("column '{name}' holds more than 2 GiB, beyond one Parquet page")]
    TooLarge {
        /// The column's name.
        name: String,
    },
}

/// The Parquet file of the named columns, with `metadata` as the file's key-value metadata.
pub fn write_parquet(
    columns: &[(&str, ParquetValues)],
    metadata: &[(&str, &str)],
) -> Result<Vec<u8>, ParquetError> {
    let rows = columns.first().map_or(0, |(_, values)| values.len());
    let mut file = b"PAR1".to_vec();
    let mut chunks = Vec::new();
    for (name, values) in columns {
        if values.len() != rows {
            return Err(ParquetError::Ragged {
                name: name.to_string(),
                found: values.len(),
                expected: rows,
            });
        }
        let offset = file.len();
        let page = data_page(name, values)?;
        file.extend(&page);
        chunks.push(column_chunk(name, values, offset, page.len()));
    }
    let footer = file_metadata(columns, rows, &chunks, metadata);
    file.extend(&footer);
    file.extend((footer.len() as u32).to_le_bytes());
    file.extend(b"PAR1");
    Ok(file)
}

/// A data page (version 1): its header, the definition levels (all 1: every value present, in
/// one run of the RLE/bit-packed hybrid, with its 4-byte length) and the PLAIN values.
fn data_page(name: &str, values: &ParquetValues) -> Result<Vec<u8>, ParquetError> {
    let mut body = Vec::new();
    let mut levels = Vec::new();
    if values.len() > 0 {
        varint(&mut levels, (values.len() as u64) << 1);
        levels.push(1);
    }
    body.extend((levels.len() as u32).to_le_bytes());
    body.extend(levels);
    body.extend(values.plain());
    let size = i32::try_from(body.len()).map_err(|_| ParquetError::TooLarge {
        name: name.to_string(),
    })?;
    let count = i32::try_from(values.len()).map_err(|_| ParquetError::TooLarge {
        name: name.to_string(),
    })?;
    let mut header = Compact::default();
    header.i32(1, 0); // DATA_PAGE
    header.i32(2, size);
    header.i32(3, size);
    header.begin_struct(5);
    header.i32(1, count);
    header.i32(2, 0); // PLAIN
    header.i32(3, 3); // RLE definition levels
    header.i32(4, 3); // RLE repetition levels
    header.end_struct();
    header.stop();
    let mut page = header.bytes;
    page.extend(body);
    Ok(page)
}

/// A row group's ColumnChunk (with its ColumnMetaData) for a page written at `offset`.
fn column_chunk(name: &str, values: &ParquetValues, offset: usize, size: usize) -> Vec<u8> {
    let mut chunk = Compact::default();
    chunk.i64(2, offset as i64);
    chunk.begin_struct(3);
    chunk.i32(1, values.physical_type());
    chunk.list_header(2, 5, 2);
    chunk.raw_varint(zigzag(0)); // PLAIN
    chunk.raw_varint(zigzag(3)); // RLE
    chunk.list_header(3, 8, 1);
    chunk.raw_binary(name.as_bytes());
    chunk.i32(4, 0); // UNCOMPRESSED
    chunk.i64(5, values.len() as i64);
    chunk.i64(6, size as i64);
    chunk.i64(7, size as i64);
    chunk.i64(9, offset as i64);
    chunk.end_struct();
    chunk.stop();
    chunk.bytes
}

/// The FileMetaData: version, schema (a root group and one optional leaf per column), rows,
/// the single row group, the key-value metadata and the writer's name.
fn file_metadata(
    columns: &[(&str, ParquetValues)],
    rows: usize,
    chunks: &[Vec<u8>],
    metadata: &[(&str, &str)],
) -> Vec<u8> {
    let mut meta = Compact::default();
    meta.i32(1, 1);
    meta.list_header(2, 12, columns.len() + 1);
    let mut root = Compact::default();
    root.binary(4, b"schema");
    root.i32(5, columns.len() as i32);
    root.stop();
    meta.bytes.extend(root.bytes);
    for (name, values) in columns {
        let mut element = Compact::default();
        element.i32(1, values.physical_type());
        element.i32(3, 1); // OPTIONAL
        element.binary(4, name.as_bytes());
        if let ParquetValues::Text(_) = values {
            element.i32(6, 0); // converted type UTF8
            element.begin_struct(10); // logical type: the STRING member, an empty struct
            element.begin_struct(1);
            element.end_struct();
            element.end_struct();
        }
        element.stop();
        meta.bytes.extend(element.bytes);
    }
    meta.i64(3, rows as i64);
    meta.list_header(4, 12, 1);
    let mut group = Compact::default();
    group.list_header(1, 12, chunks.len());
    chunks.iter().for_each(|chunk| group.bytes.extend(chunk));
    let total: i64 = columns
        .iter()
        .map(|(_, values)| values.plain().len() as i64)
        .sum();
    group.i64(2, total);
    group.i64(3, rows as i64);
    group.stop();
    meta.bytes.extend(group.bytes);
    if !metadata.is_empty() {
        meta.list_header(5, 12, metadata.len());
        for (key, value) in metadata {
            let mut pair = Compact::default();
            pair.binary(1, key.as_bytes());
            pair.binary(2, value.as_bytes());
            pair.stop();
            meta.bytes.extend(pair.bytes);
        }
    }
    meta.binary(6, b"experiments (report::parquet)");
    meta.stop();
    meta.bytes
}

fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// A struct being written in Thrift's compact protocol (field ids relative to the last one).
#[derive(Default)]
struct Compact {
    bytes: Vec<u8>,
    last: Vec<i16>,
    current: i16,
}

impl Compact {
    fn field(&mut self, id: i16, kind: u8) {
        let delta = id - self.current;
        if (1..=15).contains(&delta) {
            self.bytes.push(((delta as u8) << 4) | kind);
        } else {
            self.bytes.push(kind);
            varint(&mut self.bytes, zigzag(i64::from(id)));
        }
        self.current = id;
    }

    fn i32(&mut self, id: i16, value: i32) {
        self.field(id, 5);
        varint(&mut self.bytes, zigzag(i64::from(value)));
    }

    fn i64(&mut self, id: i16, value: i64) {
        self.field(id, 6);
        varint(&mut self.bytes, zigzag(value));
    }

    fn binary(&mut self, id: i16, value: &[u8]) {
        self.field(id, 8);
        self.raw_binary(value);
    }

    fn raw_binary(&mut self, value: &[u8]) {
        varint(&mut self.bytes, value.len() as u64);
        self.bytes.extend(value);
    }

    fn raw_varint(&mut self, value: u64) {
        varint(&mut self.bytes, value);
    }

    /// A list field's header; its `size` elements of type `kind` follow.
    fn list_header(&mut self, id: i16, kind: u8, size: usize) {
        self.field(id, 9);
        if size < 15 {
            self.bytes.push(((size as u8) << 4) | kind);
        } else {
            self.bytes.push(0xF0 | kind);
            varint(&mut self.bytes, size as u64);
        }
    }

    fn begin_struct(&mut self, id: i16) {
        self.field(id, 12);
        self.last.push(self.current);
        self.current = 0;
    }

    fn end_struct(&mut self) {
        self.stop();
        self.current = self.last.pop().unwrap_or(0);
    }

    fn stop(&mut self) {
        self.bytes.push(0);
    }
}
