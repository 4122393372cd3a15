//! Lexical tokens: `(kind, start, end)`, byte offsets into the source (npm yaml: `parse/cst.ts`,
//! `tokenType`). A token's text is `&src[start..end]`; no token owns a string.

/// npm yaml's token types (`SourceToken['type']`, `FlowScalar['type']`), plus `Unknown` for
/// text `tokenType` does not recognise (`Not a YAML token`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    ByteOrderMark,
    /// `\x02`: a document starts with the next token (zero width).
    DocMode,
    DocStart,
    DocEnd,
    Space,
    Comment,
    Newline,
    DirectiveLine,
    Anchor,
    Tag,
    SeqItemInd,
    ExplicitKeyInd,
    MapValueInd,
    FlowMapStart,
    FlowMapEnd,
    FlowSeqStart,
    FlowSeqEnd,
    /// `\x18`: unexpected end of a flow collection (zero width).
    FlowErrorEnd,
    Comma,
    BlockScalarHeader,
    Alias,
    /// A plain scalar or a block scalar's body: the lexer's `\x1f` marker and the text after it,
    /// as one token (the text may be empty).
    Scalar,
    SingleQuotedScalar,
    DoubleQuotedScalar,
    Unknown,
}

impl Kind {
    /// npm yaml's name of the type, as error messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::ByteOrderMark => "byte-order-mark",
            Kind::DocMode => "doc-mode",
            Kind::DocStart => "doc-start",
            Kind::DocEnd => "doc-end",
            Kind::Space => "space",
            Kind::Comment => "comment",
            Kind::Newline => "newline",
            Kind::DirectiveLine => "directive-line",
            Kind::Anchor => "anchor",
            Kind::Tag => "tag",
            Kind::SeqItemInd => "seq-item-ind",
            Kind::ExplicitKeyInd => "explicit-key-ind",
            Kind::MapValueInd => "map-value-ind",
            Kind::FlowMapStart => "flow-map-start",
            Kind::FlowMapEnd => "flow-map-end",
            Kind::FlowSeqStart => "flow-seq-start",
            Kind::FlowSeqEnd => "flow-seq-end",
            Kind::FlowErrorEnd => "flow-error-end",
            Kind::Comma => "comma",
            Kind::BlockScalarHeader => "block-scalar-header",
            Kind::Alias => "alias",
            Kind::Scalar => "scalar",
            Kind::SingleQuotedScalar => "single-quoted-scalar",
            Kind::DoubleQuotedScalar => "double-quoted-scalar",
            Kind::Unknown => "unknown",
        }
    }

    /// `tokenType(source)`: the type of a token, from its text alone.
    pub fn of(text: &[u8]) -> Kind {
        match text {
            b"\xEF\xBB\xBF" => return Kind::ByteOrderMark,
            b"\x02" => return Kind::DocMode,
            b"\x18" => return Kind::FlowErrorEnd,
            b"\x1f" => return Kind::Scalar,
            b"---" => return Kind::DocStart,
            b"..." => return Kind::DocEnd,
            b"" | b"\n" | b"\r\n" => return Kind::Newline,
            b"-" => return Kind::SeqItemInd,
            b"?" => return Kind::ExplicitKeyInd,
            b":" => return Kind::MapValueInd,
            b"{" => return Kind::FlowMapStart,
            b"}" => return Kind::FlowMapEnd,
            b"[" => return Kind::FlowSeqStart,
            b"]" => return Kind::FlowSeqEnd,
            b"," => return Kind::Comma,
            _ => {}
        }
        match text[0] {
            b' ' | b'\t' => Kind::Space,
            b'#' => Kind::Comment,
            b'%' => Kind::DirectiveLine,
            b'*' => Kind::Alias,
            b'&' => Kind::Anchor,
            b'!' => Kind::Tag,
            b'\'' => Kind::SingleQuotedScalar,
            b'"' => Kind::DoubleQuotedScalar,
            b'|' | b'>' => Kind::BlockScalarHeader,
            _ => Kind::Unknown,
        }
    }
}

/// One lexical token: its kind and its byte range in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub start: u32,
    pub end: u32,
}

impl Token {
    pub fn len(self) -> u32 {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub fn text(self, src: &str) -> &str {
        &src[self.start as usize..self.end as usize]
    }
}
