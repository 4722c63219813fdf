//! The keywords of 2020-12, each with the vocabulary that defines it, and a schema object's
//! keywords read in one pass over its members.
//!
//! Lowering asks a schema object for some forty keywords, where it holds a handful: looked up
//! one by one in its map, each absent keyword cost a search of the map's names. Read once
//! into [`SchemaObject`], each costs an index.

use super::vocabulary::Vocabularies as V;
use serde_json::{Map, Value};

macro_rules! keywords {
    ($($variant:ident = $name:literal in $vocabulary:ident,)*) => {
        /// A keyword some 2020-12 vocabulary defines, or `dependencies`, which lowering reads
        /// (as `dependentSchemas` or `dependentRequired`, the two keywords that replaced it).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Keyword {
            $($variant,)*
        }

        impl Keyword {
            /// Every keyword, in declaration order.
            const ALL: &[Keyword] = &[$(Keyword::$variant,)*];

            /// The keyword named `name`, if it is one.
            pub fn of(name: &str) -> Option<Keyword> {
                Some(match name {
                    $($name => Keyword::$variant,)*
                    _ => return None,
                })
            }

            /// The keyword as a schema writes it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Keyword::$variant => $name,)*
                }
            }

            /// The vocabulary that defines the keyword (`format`: the format-annotation
            /// one, which the format-assertion one shares it with).
            pub fn vocabulary(self) -> V {
                match self {
                    $(Keyword::$variant => V::$vocabulary,)*
                }
            }
        }
    };
}

keywords! {
    Id = "$id" in CORE,
    Schema = "$schema" in CORE,
    Ref = "$ref" in CORE,
    Anchor = "$anchor" in CORE,
    DynamicRef = "$dynamicRef" in CORE,
    DynamicAnchor = "$dynamicAnchor" in CORE,
    Vocabulary = "$vocabulary" in CORE,
    Comment = "$comment" in CORE,
    Defs = "$defs" in CORE,
    PrefixItems = "prefixItems" in APPLICATOR,
    Items = "items" in APPLICATOR,
    Contains = "contains" in APPLICATOR,
    AdditionalProperties = "additionalProperties" in APPLICATOR,
    Properties = "properties" in APPLICATOR,
    PatternProperties = "patternProperties" in APPLICATOR,
    DependentSchemas = "dependentSchemas" in APPLICATOR,
    Dependencies = "dependencies" in APPLICATOR,
    PropertyNames = "propertyNames" in APPLICATOR,
    If = "if" in APPLICATOR,
    Then = "then" in APPLICATOR,
    Else = "else" in APPLICATOR,
    AllOf = "allOf" in APPLICATOR,
    AnyOf = "anyOf" in APPLICATOR,
    OneOf = "oneOf" in APPLICATOR,
    Not = "not" in APPLICATOR,
    UnevaluatedItems = "unevaluatedItems" in UNEVALUATED,
    UnevaluatedProperties = "unevaluatedProperties" in UNEVALUATED,
    Type = "type" in VALIDATION,
    Const = "const" in VALIDATION,
    Enum = "enum" in VALIDATION,
    MultipleOf = "multipleOf" in VALIDATION,
    Maximum = "maximum" in VALIDATION,
    ExclusiveMaximum = "exclusiveMaximum" in VALIDATION,
    Minimum = "minimum" in VALIDATION,
    ExclusiveMinimum = "exclusiveMinimum" in VALIDATION,
    MaxLength = "maxLength" in VALIDATION,
    MinLength = "minLength" in VALIDATION,
    Pattern = "pattern" in VALIDATION,
    MaxItems = "maxItems" in VALIDATION,
    MinItems = "minItems" in VALIDATION,
    UniqueItems = "uniqueItems" in VALIDATION,
    MaxContains = "maxContains" in VALIDATION,
    MinContains = "minContains" in VALIDATION,
    MaxProperties = "maxProperties" in VALIDATION,
    MinProperties = "minProperties" in VALIDATION,
    Required = "required" in VALIDATION,
    DependentRequired = "dependentRequired" in VALIDATION,
    Title = "title" in META_DATA,
    Description = "description" in META_DATA,
    Default = "default" in META_DATA,
    Deprecated = "deprecated" in META_DATA,
    ReadOnly = "readOnly" in META_DATA,
    WriteOnly = "writeOnly" in META_DATA,
    Examples = "examples" in META_DATA,
    Format = "format" in FORMAT_ANNOTATION,
    ContentEncoding = "contentEncoding" in CONTENT,
    ContentMediaType = "contentMediaType" in CONTENT,
    ContentSchema = "contentSchema" in CONTENT,
}

/// The keywords of one schema object, each found by an index.
pub struct SchemaObject<'v> {
    values: [Option<&'v Value>; Keyword::ALL.len()],
}

impl<'v> SchemaObject<'v> {
    /// Reads `map`'s keywords; its other members are not kept.
    pub fn of(map: &'v Map<String, Value>) -> SchemaObject<'v> {
        let mut values = [None; Keyword::ALL.len()];
        for (name, value) in map {
            if let Some(keyword) = Keyword::of(name) {
                values[keyword as usize] = Some(value);
            }
        }
        SchemaObject { values }
    }

    /// The value of `keyword`, if the object has it.
    #[inline]
    pub fn get(&self, keyword: Keyword) -> Option<&'v Value> {
        self.values[keyword as usize]
    }

    /// Whether the object has `keyword`.
    #[inline]
    pub fn has(&self, keyword: Keyword) -> bool {
        self.get(keyword).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_keyword_is_found_by_its_name_and_nothing_else_is() {
        for &keyword in Keyword::ALL {
            assert_eq!(Keyword::of(keyword.name()), Some(keyword));
        }
        for name in ["", "Type", "$id ", "definitions", "x-extension", "minimum0"] {
            assert_eq!(Keyword::of(name), None, "{name}");
        }
    }

    #[test]
    fn a_schema_object_holds_its_keywords_only() {
        let schema = json!({"type": "string", "minLength": 1, "x-note": true});
        let object = SchemaObject::of(schema.as_object().unwrap());
        assert_eq!(object.get(Keyword::Type), Some(&json!("string")));
        assert_eq!(object.get(Keyword::MinLength), Some(&json!(1)));
        assert!(!object.has(Keyword::MaxLength));
        let present = Keyword::ALL.iter().filter(|&&k| object.has(k)).count();
        assert_eq!(present, 2);
    }
}
