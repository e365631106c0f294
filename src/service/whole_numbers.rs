//! JSON Schema counts `3.0` as an integer, so request fields declared as
//! integers accept a number with a zero fraction too; anything else
//! (fractions, out of range) is refused with the field's type in the error.

use serde::{Deserialize, Deserializer, de::Error};

/// Reads an optional integer field that may be written as a whole float.
pub fn optional<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<i64>,
{
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    let whole = n
        .as_i64()
        .or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        })
        .ok_or_else(|| D::Error::custom(format!("{n} is not a whole number")))?;
    T::try_from(whole)
        .map(Some)
        .map_err(|_| D::Error::custom(format!("{whole} is out of range")))
}

#[cfg(test)]
mod tests {
    #[derive(serde::Deserialize)]
    struct S {
        #[serde(default, deserialize_with = "super::optional")]
        n: Option<u8>,
    }

    #[test]
    fn whole_floats_pass_fractions_and_overflow_do_not() {
        let p = |j: &str| serde_json::from_str::<S>(j).map(|s| s.n);
        assert_eq!(p(r#"{"n": 3}"#).unwrap(), Some(3));
        assert_eq!(p(r#"{"n": 3.0}"#).unwrap(), Some(3));
        assert_eq!(p(r#"{}"#).unwrap(), None);
        assert_eq!(p(r#"{"n": null}"#).unwrap(), None);
        assert!(p(r#"{"n": 3.5}"#).is_err());
        assert!(p(r#"{"n": 300}"#).is_err());
        assert!(p(r#"{"n": "3"}"#).is_err());
    }
}

/// Rewrites every whole-number float in `v` (such as `3.0`) as an integer,
/// for request parts that are deserialized into engine types.
pub fn normalize(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15) {
                *v = serde_json::Value::from(f as i64);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(normalize),
        serde_json::Value::Object(map) => map.values_mut().for_each(normalize),
        _ => {}
    }
}

#[cfg(test)]
mod normalize_tests {
    #[test]
    fn whole_floats_become_integers_everywhere() {
        let mut v = serde_json::json!({"a": 3.0, "b": [1.0, 2.5], "c": {"d": -4.0}, "e": "5.0"});
        super::normalize(&mut v);
        assert_eq!(
            v,
            serde_json::json!({"a": 3, "b": [1, 2.5], "c": {"d": -4}, "e": "5.0"})
        );
    }
}
