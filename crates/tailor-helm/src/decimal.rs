//! sprig's float math (`addf`, `add1f`, `subf`, `mulf`, `divf`), which runs through
//! shopspring/decimal v1.4.0: each operand becomes the shortest decimal that reads back as
//! its float64 (`NewFromFloat`), sums and products are exact, a quotient keeps 16 places
//! rounded half away from zero (`DivisionPrecision`, `DivRound`), and the result is the
//! float64 nearest to the decimal (`Float64`). Also `maxf`/`minf` (Go's `math.Max`/`Min`)
//! and `toDecimal` (an octal string read as an integer).

use num_bigint::BigInt;
use tailor_go::Value;

/// A decimal `mant × 10^exp`.
#[derive(Clone, Debug, PartialEq)]
struct Dec {
    mant: BigInt,
    exp: i64,
}

const DIVISION_PRECISION: i64 = 16;

fn pow10(n: i64) -> BigInt {
    BigInt::from(10u8).pow(n as u32)
}

impl Dec {
    /// `decimal.NewFromFloat`: the shortest representation that round-trips.
    fn from_f64(f: f64) -> Result<Dec, String> {
        if !f.is_finite() {
            let v = if f.is_nan() {
                "NaN"
            } else if f > 0.0 {
                "+Inf"
            } else {
                "-Inf"
            };
            return Err(format!("Cannot create a Decimal from {v}"));
        }
        let text = format!("{f:e}");
        let (digits, exp) = text.split_once('e').unwrap_or((&text, "0"));
        let exp: i64 = exp.parse().unwrap_or(0);
        let frac = digits.split_once('.').map_or(0, |(_, f)| f.len() as i64);
        let mant: BigInt = digits.replace('.', "").parse().unwrap_or_default();
        Ok(Dec {
            mant,
            exp: exp - frac,
        })
    }

    fn aligned(&self, other: &Dec) -> (BigInt, BigInt, i64) {
        let exp = self.exp.min(other.exp);
        let a = &self.mant * pow10(self.exp - exp);
        let b = &other.mant * pow10(other.exp - exp);
        (a, b, exp)
    }

    fn add(&self, o: &Dec) -> Dec {
        let (a, b, exp) = self.aligned(o);
        Dec { mant: a + b, exp }
    }

    fn sub(&self, o: &Dec) -> Dec {
        let (a, b, exp) = self.aligned(o);
        Dec { mant: a - b, exp }
    }

    fn mul(&self, o: &Dec) -> Dec {
        Dec {
            mant: &self.mant * &o.mant,
            exp: self.exp + o.exp,
        }
    }

    /// `Div`: `DivRound(o, 16)`.
    fn div(&self, o: &Dec) -> Result<Dec, String> {
        if o.mant == BigInt::from(0u8) {
            return Err("decimal division by zero".into());
        }
        let k = self.exp - o.exp + DIVISION_PRECISION;
        let (num, den) = if k >= 0 {
            (&self.mant * pow10(k), o.mant.clone())
        } else {
            (self.mant.clone(), &o.mant * pow10(-k))
        };
        let (mut q, r) = (&num / &den, &num % &den);
        let twice: BigInt = r.magnitude().clone().into();
        if twice * 2u8 >= den.magnitude().clone().into() {
            let away = if (num.sign() == num_bigint::Sign::Minus)
                == (den.sign() == num_bigint::Sign::Minus)
            {
                1
            } else {
                -1
            };
            q += away;
        }
        Ok(Dec {
            mant: q,
            exp: -DIVISION_PRECISION,
        })
    }

    /// `Float64`: the nearest float64 (Rust's parser rounds correctly, as `big.Rat` does).
    fn to_f64(&self) -> f64 {
        format!("{}e{}", self.mant, self.exp)
            .parse()
            .unwrap_or(f64::NAN)
    }
}

/// spf13/cast `ToFloat64` as sprig calls it: numbers, bools, numeric strings; else 0.
pub fn to_float64(v: &Value) -> f64 {
    match v {
        Value::Int(n) => *n as f64,
        Value::Float(f) => *f,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::String(s) => s.parse().unwrap_or(0.0),
        _ => 0.0,
    }
}

/// sprig's `execDecimalOp`: `first` combined with each of `rest` in turn.
fn fold(first: &Value, rest: &[Value], op: &str) -> Result<Value, String> {
    let mut acc = Dec::from_f64(to_float64(first))?;
    for x in rest {
        let d = Dec::from_f64(to_float64(x))?;
        acc = match op {
            "add" => acc.add(&d),
            "sub" => acc.sub(&d),
            "mul" => acc.mul(&d),
            _ => acc.div(&d)?,
        };
    }
    Ok(Value::Float(acc.to_f64()))
}

/// Go's `math.Max` / `math.Min`: NaN wins, and +0 is above -0.
fn go_max(a: f64, b: f64, max: bool) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    if a == 0.0 && b == 0.0 {
        let neg = if max {
            a.is_sign_negative() && b.is_sign_negative()
        } else {
            a.is_sign_negative() || b.is_sign_negative()
        };
        return if neg { -0.0 } else { 0.0 };
    }
    if (a > b) == max {
        a
    } else {
        b
    }
}

pub const NAMES: &[&str] = &[
    "addf",
    "add1f",
    "subf",
    "mulf",
    "divf",
    "maxf",
    "minf",
    "toDecimal",
];

pub fn call(name: &str, args: Vec<Value>) -> Result<Value, String> {
    let (first, rest) = match args.split_first() {
        Some((f, r)) => (f.clone(), r),
        None => (Value::Nil, &[][..]),
    };
    match name {
        "addf" => fold(&Value::Float(0.0), &args, "add"),
        "add1f" => fold(&first, &[Value::Int(1)], "add"),
        "subf" => fold(&first, rest, "sub"),
        "mulf" => fold(&first, rest, "mul"),
        "divf" => fold(&first, rest, "div"),
        "maxf" | "minf" => Ok(Value::Float(
            rest.iter().fold(to_float64(&first), |a, b| {
                go_max(a, to_float64(b), name == "maxf")
            }),
        )),
        _ => {
            let text = crate::sprig::to_string(&first);
            Ok(Value::Int(i64::from_str_radix(&text, 8).unwrap_or(0)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str, args: &[f64]) -> f64 {
        let args = args.iter().map(|&x| Value::Float(x)).collect();
        match call(name, args) {
            Ok(Value::Float(x)) => x,
            other => panic!("{other:?}"),
        }
    }

    /// Exact decimal sums where float64 addition is not: 0.1 + 0.2 is 0.3, not
    /// 0.30000000000000004 (shopspring/decimal's reason to exist).
    #[test]
    fn decimal_semantics() {
        assert_eq!(f("addf", &[0.1, 0.2]), 0.3);
        assert_eq!(f("subf", &[0.3, 0.1]), 0.2);
        assert_eq!(f("mulf", &[1.1, 1.1]), 1.21);
        assert_eq!(f("divf", &[1.0, 3.0]), 0.3333333333333333);
        assert_eq!(f("divf", &[2.0, 3.0]), 0.6666666666666667);
        assert_eq!(f("divf", &[-2.0, 3.0]), -0.6666666666666667);
        assert_eq!(f("addf", &[1e300, 1e300]), 2e300);
        assert!(call("divf", vec![Value::Int(1), Value::Int(0)]).is_err());
        assert!(f("maxf", &[1.0, f64::NAN]).is_nan());
        assert_eq!(f("minf", &[0.0, -0.0]).to_bits(), (-0.0f64).to_bits());
    }
}
