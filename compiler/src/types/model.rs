//! The Rust types a schema maps to, before they are written as code.

/// A Rust type, as a field, an item, a map value or a variant holds it.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// `serde_json::Value` where the schema allows any value.
    Any,
    /// `serde_json::Value` where the schema says more than a type can (the reason is in the
    /// report); the validator still guards it.
    Fallback(&'static str),
    /// `()`: `null`.
    Unit,
    /// `bool`.
    Bool,
    /// `String`.
    String,
    /// `f64`: a `number` whose bounds keep it where every integer is exact.
    F64,
    /// `serde_json::Number`: a number no Rust number type holds exactly whatever it is.
    Number,
    /// A Rust integer type chosen from the bounds (`u8` … `i64`, `u64`).
    Int(&'static str),
    /// `Option<T>`: `null` or a `T`.
    Option(Box<Ty>),
    /// `Vec<T>`.
    Vec(Box<Ty>),
    /// A tuple: `prefixItems` of a fixed length.
    Tuple(Vec<Ty>),
    /// `BTreeMap<String, T>`.
    Map(Box<Ty>),
    /// A generated item, by index in [`Types::defs`].
    Named(usize),
}

impl Ty {
    /// Whether the type has a value for `null`, so that an optional member holding `null`
    /// must stay apart from an absent one.
    pub fn holds_null(&self) -> bool {
        matches!(self, Ty::Any | Ty::Fallback(_) | Ty::Unit | Ty::Option(_))
    }
}

/// One generated item.
#[derive(Debug)]
pub struct Def {
    /// Its Rust name, unique among the schema's items.
    pub name: String,
    /// Doc comment lines (from `title` and `description`).
    pub doc: Vec<String>,
    /// What it is.
    pub kind: Kind,
}

/// The kinds of generated items.
#[derive(Debug)]
pub enum Kind {
    /// Being built (a reference target reached again through recursion).
    Pending,
    /// Another name for a type: `type Name = T;`, or a transparent newtype when the alias
    /// would be recursive or must carry methods.
    Alias(Ty),
    /// An object with declared properties.
    Struct(Struct),
    /// An `enum` of strings.
    Strings(Vec<(String, String)>),
    /// `anyOf` / `oneOf`, or a value of several types.
    Union(Union),
    /// A `const`: a unit struct that (de)serializes as exactly that value.
    Const(String),
}

/// An object's fields.
#[derive(Debug)]
pub struct Struct {
    /// Declared properties, in schema order.
    pub fields: Vec<Field>,
    /// A union of object shapes flattened into the struct, with its field name.
    pub union: Option<(String, Ty)>,
    /// The other members, flattened, with the field name and the value type.
    pub rest: Option<(String, Ty)>,
    /// Whether no member but the declared ones is allowed.
    pub closed: bool,
}

/// One declared property.
#[derive(Debug)]
pub struct Field {
    /// The member name.
    pub json: String,
    /// The Rust field name.
    pub ident: String,
    /// The value's type (without the `Option` of an optional member).
    pub ty: Ty,
    /// Whether the member is required.
    pub required: bool,
    /// Doc comment lines.
    pub doc: Vec<String>,
    /// `deprecated: true`.
    pub deprecated: bool,
}

/// The variants of a union.
#[derive(Debug)]
pub struct Union {
    /// The discriminating member of an internally tagged union; `None` for an untagged one.
    pub tag: Option<String>,
    /// Variant name, the tag value it stands for (tagged), and its content.
    pub variants: Vec<(String, Option<String>, Ty)>,
}

/// Why part of a schema is typed as `serde_json::Value`: where, and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fallback {
    /// The subschema's location: a JSON Pointer into the schema document, or an absolute
    /// URI outside it.
    pub location: String,
    /// What the type cannot say.
    pub reason: &'static str,
}

/// A schema's types: the items, the root's index and the fallbacks.
#[derive(Debug)]
pub struct Types {
    /// Every generated item (aliases of items among them, which the code sees through).
    pub defs: Vec<Def>,
    /// The root type's item.
    pub root: usize,
    /// Every place typed as `serde_json::Value` although the schema says more.
    pub fallbacks: Vec<Fallback>,
    /// Members and items typed as `serde_json::Value` because the schema allows any value.
    pub open_values: usize,
}
