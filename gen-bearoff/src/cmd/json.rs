//! `--json` output: a small JSON value and its pretty printer (two-space indent, one
//! field per line, as the other tools print with serde_json, except that an array of
//! numbers, strings or nulls stays on one line). gen-bearoff's library
//! has no serde, and the few documents printed here do not need it.

use std::fmt::Write as _;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, already written as a JSON number.
    Num(String),
    /// A string (escaped when printed).
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object, fields in order.
    Obj(Vec<(&'static str, Json)>),
}

impl Json {
    /// An unsigned integer.
    pub fn uint(v: u64) -> Json {
        Json::Num(v.to_string())
    }

    /// An `f32` as the shortest decimal that reads back to it (`null` if not finite).
    pub fn f32(v: f32) -> Json {
        if v.is_finite() {
            Json::Num(v.to_string())
        } else {
            Json::Null
        }
    }

    /// An `f64` as the shortest decimal that reads back to it (`null` if not finite).
    pub fn f64(v: f64) -> Json {
        if v.is_finite() {
            Json::Num(v.to_string())
        } else {
            Json::Null
        }
    }

    /// A string.
    pub fn str(v: impl Into<String>) -> Json {
        Json::Str(v.into())
    }

    /// An array of `f32`.
    pub fn f32s(v: &[f32]) -> Json {
        Json::Arr(v.iter().map(|&x| Json::f32(x)).collect())
    }

    /// The value, pretty-printed, without a final newline.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        self.write(&mut s, 0);
        s
    }

    fn is_scalar(&self) -> bool {
        !matches!(self, Json::Arr(_) | Json::Obj(_))
    }

    fn write(&self, s: &mut String, depth: usize) {
        let indent = |s: &mut String, d: usize| s.extend(std::iter::repeat_n("  ", d));
        match self {
            Json::Null => s.push_str("null"),
            Json::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => s.push_str(n),
            Json::Str(t) => escape(s, t),
            Json::Arr(v) if v.is_empty() => s.push_str("[]"),
            Json::Obj(v) if v.is_empty() => s.push_str("{}"),
            Json::Arr(v) if v.iter().all(Json::is_scalar) => {
                s.push('[');
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    x.write(s, depth);
                }
                s.push(']');
            }
            Json::Arr(v) => {
                s.push_str("[\n");
                for (i, x) in v.iter().enumerate() {
                    indent(s, depth + 1);
                    x.write(s, depth + 1);
                    s.push_str(if i + 1 < v.len() { ",\n" } else { "\n" });
                }
                indent(s, depth);
                s.push(']');
            }
            Json::Obj(v) => {
                s.push_str("{\n");
                for (i, (k, x)) in v.iter().enumerate() {
                    indent(s, depth + 1);
                    escape(s, k);
                    s.push_str(": ");
                    x.write(s, depth + 1);
                    s.push_str(if i + 1 < v.len() { ",\n" } else { "\n" });
                }
                indent(s, depth);
                s.push('}');
            }
        }
    }
}

/// A JSON string literal for `t`.
fn escape(s: &mut String, t: &str) {
    s.push('"');
    for c in t.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_print_as_json() {
        let v = Json::Obj(vec![
            ("a", Json::uint(3)),
            ("b", Json::str("x\"y\\z\n\u{1}é")),
            (
                "c",
                Json::Arr(vec![Json::f32(0.1), Json::f64(-2.5e-7), Json::f32(f32::NAN)]),
            ),
            ("d", Json::Arr(vec![])),
            ("n", Json::Arr(vec![Json::Arr(vec![]), Json::uint(1)])),
            ("e", Json::Obj(vec![("f", Json::Bool(true)), ("g", Json::Null)])),
        ]);
        let want = "{\n  \"a\": 3,\n  \"b\": \"x\\\"y\\\\z\\n\\u0001é\",\n  \"c\": [0.1, -0.00000025, null],\n  \"d\": [],\n  \"n\": [\n    [],\n    1\n  ],\n  \"e\": {\n    \"f\": true,\n    \"g\": null\n  }\n}";
        assert_eq!(v.pretty(), want);
    }
}
