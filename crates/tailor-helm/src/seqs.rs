//! sprig's number sequences and list cuts (v3.3.0 `numeric.go` `seq`, `untilStep`;
//! `list.go` `slice`, `chunk` and their `must` forms). Go's `int` parameters take ints only,
//! as Go's template checks them (`wrong type for value; expected int; got float64`).

use tailor_go::Value;

/// The most items a sequence may have: Go would allocate them all; tailor stops with an
/// error instead of exhausting memory.
pub const MAX_ITEMS: i64 = 1 << 22;

pub const NAMES: &[&str] = &[
    "seq",
    "untilStep",
    "slice",
    "mustSlice",
    "chunk",
    "mustChunk",
];

/// A Go `int` parameter.
pub fn go_int(v: &Value) -> Result<i64, String> {
    match v {
        Value::Int(n) => Ok(*n),
        other => Err(format!(
            "wrong type for value; expected int; got {}",
            crate::sprig::type_of(other)
        )),
    }
}

/// sprig's `untilStep`: from `start` towards `stop` (excluded) by `step`.
fn until_step(start: i64, stop: i64, step: i64) -> Result<Vec<i64>, String> {
    let (start_w, stop_w, step_w) = (i128::from(start), i128::from(stop), i128::from(step));
    let count = if stop < start {
        if step >= 0 {
            return Ok(Vec::new());
        }
        (start_w - stop_w - step_w - 1) / -step_w
    } else {
        if step <= 0 {
            return Ok(Vec::new());
        }
        (stop_w - start_w + step_w - 1) / step_w
    };
    if count > i128::from(MAX_ITEMS) {
        return Err(format!(
            "a sequence from {start} to {stop} by {step} has {count} items, more than tailor's limit of {MAX_ITEMS}"
        ));
    }
    Ok((0..count as i64).map(|i| start + i * step).collect())
}

/// sprig's `seq`: `seq END`, `seq START END`, `seq START STEP END`, as text.
fn seq(params: &[i64]) -> Result<String, String> {
    let nums = match *params {
        [end] => {
            let inc = if end < 1 { -1 } else { 1 };
            until_step(1, end.wrapping_add(inc), inc)?
        }
        [start, end] => {
            let step = if end < start { -1 } else { 1 };
            until_step(start, end.wrapping_add(step), step)?
        }
        [start, step, end] => {
            let inc = if end < start { -1 } else { 1 };
            if end < start && step > 0 {
                return Ok(String::new());
            }
            until_step(start, end.wrapping_add(inc), step)?
        }
        _ => Vec::new(),
    };
    let text: Vec<String> = nums.iter().map(i64::to_string).collect();
    Ok(text.join(" "))
}

fn ints(l: Vec<i64>) -> Value {
    Value::List(l.into_iter().map(Value::Int).collect())
}

/// sprig's `slice LIST [START [END]]`; Go panics on bounds outside the list.
fn slice(list: Value, idx: &[Value]) -> Result<Value, String> {
    let Value::List(l) = list else {
        return Err(format!(
            "list should be type of slice or array but {}",
            crate::sprig::kind_of(&list)
        ));
    };
    if l.is_empty() {
        return Ok(Value::Nil);
    }
    let to_int = |v: &Value| crate::decimal::to_float64(v) as i64;
    let start = idx.first().map_or(0, to_int);
    let end = idx.get(1).map_or(l.len() as i64, to_int);
    if start < 0 || end < start || end > l.len() as i64 {
        return Err("reflect: slice index out of range".to_string());
    }
    Ok(Value::List(l[start as usize..end as usize].to_vec()))
}

/// sprig's `chunk SIZE LIST`: lists of `SIZE` items, the last one shorter.
fn chunk(size: i64, list: Value) -> Result<Value, String> {
    let Value::List(l) = list else {
        return Err(format!(
            "Cannot chunk type {}",
            crate::sprig::kind_of(&list)
        ));
    };
    if l.is_empty() {
        return Ok(Value::List(Vec::new()));
    }
    if size <= 0 {
        return Err("runtime error: makeslice: len out of range".into());
    }
    let chunks = l.chunks(size as usize).map(|c| Value::List(c.to_vec()));
    Ok(Value::List(chunks.collect()))
}

pub fn call(name: &str, args: Vec<Value>) -> Result<Value, String> {
    match name {
        "seq" => {
            let params = args.iter().map(go_int).collect::<Result<Vec<_>, _>>()?;
            Ok(Value::String(seq(&params)?))
        }
        "untilStep" => {
            let p = args.iter().map(go_int).collect::<Result<Vec<_>, _>>()?;
            let [start, stop, step] = p[..] else {
                return Err("untilStep takes three ints".into());
            };
            Ok(ints(until_step(start, stop, step)?))
        }
        "slice" | "mustSlice" => {
            let mut it = args.into_iter();
            let list = it.next().unwrap_or(Value::Nil);
            slice(list, &it.collect::<Vec<_>>())
        }
        _ => {
            let mut it = args.into_iter();
            let size = go_int(&it.next().unwrap_or(Value::Nil))?;
            chunk(size, it.next().unwrap_or(Value::Nil))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sprig v3.3.0 numeric_test.go TestSeq (templates as parameter lists).
    #[test]
    fn sprig_seq_table() {
        for (params, want) in [
            (&[0, 1, 3][..], "0 1 2 3"),
            (&[0, 3, 10], "0 3 6 9"),
            (&[3, 3, 2], ""),
            (&[3, -3, 2], "3"),
            (&[], ""),
            (&[0, 4], "0 1 2 3 4"),
            (&[5], "1 2 3 4 5"),
            (&[-5], "1 0 -1 -2 -3 -4 -5"),
            (&[0], "1 0"),
            (&[0, 1, 2, 3], ""),
            (&[0, -4], "0 -1 -2 -3 -4"),
        ] {
            assert_eq!(seq(params).unwrap(), want, "{params:?}");
        }
    }

    #[test]
    fn huge_sequences_are_an_error() {
        assert!(until_step(0, i64::MAX, 1).is_err());
        assert!(until_step(i64::MAX, i64::MIN, -1).is_err());
        assert_eq!(seq(&[i64::MAX]).unwrap(), "");
    }
}
