//! A port of Go's `fmt` printing (`Sprint`, `Sprintln`, `Sprintf`) for the
//! types a template can hold. Bad verbs, missing and extra operands render
//! exactly like Go (`%!d(string=x)`, `%!s(MISSING)`, `%!(EXTRA ...)`).

use super::value::{Conc, Value};
use crate::strconv::{append_float, can_backquote, quote_rune, quote_with};
use crate::unicode::is_print;
use crate::utf8::{decode_rune, encode_rune, rune_count, MAX_RUNE, RUNE_ERROR};

const LDIGITS: &[u8; 17] = b"0123456789abcdefx";
const UDIGITS: &[u8; 17] = b"0123456789ABCDEFX";

#[derive(Clone, Copy, Default)]
struct Flags {
    wid_present: bool,
    prec_present: bool,
    minus: bool,
    plus: bool,
    sharp: bool,
    space: bool,
    zero: bool,
    plus_v: bool,
    sharp_v: bool,
    wid: i64,
    prec: i64,
}

/// Go's `pp`: one formatting run writing into `buf`.
#[derive(Default)]
struct Printer {
    buf: Vec<u8>,
    f: Flags,
    reordered: bool,
    good_arg_num: bool,
    /// The most `buf` may hold (`None`: no limit); a padding or precision that would pass it
    /// sets `over` instead of being built, and the rest of the format is skipped.
    room: Option<usize>,
    over: bool,
}

/// What `badVerb` reports: a Go `interface{}` argument or a reflected value.
type Arg<'x, 'a> = Option<&'x Conc<'a>>;

impl Printer {
    /// Whether `n` more bytes would pass the room; if so, the printer stops building.
    fn would_overflow(&mut self, n: i64) -> bool {
        let Some(room) = self.room else {
            return false;
        };
        let n = usize::try_from(n).unwrap_or(0);
        if self.buf.len().saturating_add(n) > room {
            self.over = true;
        }
        self.over
    }

    fn write_padding(&mut self, n: i64) {
        if n <= 0 || self.would_overflow(n) {
            return;
        }
        let b = if self.f.zero { b'0' } else { b' ' };
        self.buf.extend(std::iter::repeat_n(b, n as usize));
    }

    fn pad(&mut self, s: &[u8]) {
        if !self.f.wid_present || self.f.wid == 0 {
            self.buf.extend_from_slice(s);
            return;
        }
        let width = self.f.wid - rune_count(s) as i64;
        if !self.f.minus {
            self.write_padding(width);
            self.buf.extend_from_slice(s);
        } else {
            self.buf.extend_from_slice(s);
            self.write_padding(width);
        }
    }

    fn fmt_boolean(&mut self, v: bool) {
        self.pad(if v { b"true" } else { b"false" });
    }

    fn fmt_unicode(&mut self, u: u64) {
        let mut prec = 4i64;
        if self.f.prec_present && self.f.prec > 4 {
            prec = self.f.prec;
        }
        let mut hex = Vec::new();
        let mut x = u;
        loop {
            hex.push(UDIGITS[(x & 0xF) as usize]);
            x >>= 4;
            if x == 0 {
                break;
            }
        }
        while (hex.len() as i64) < prec {
            hex.push(b'0');
        }
        hex.reverse();
        let mut out = b"U+".to_vec();
        out.extend_from_slice(&hex);
        if self.f.sharp && u <= u64::from(MAX_RUNE) && is_print(u as u32) {
            out.extend_from_slice(b" '");
            encode_rune(u as u32, &mut out);
            out.push(b'\'');
        }
        let old = self.f.zero;
        self.f.zero = false;
        self.pad(&out);
        self.f.zero = old;
    }

    fn fmt_integer(&mut self, u: u64, base: u64, signed: bool, verb: char, digits: &[u8; 17]) {
        let negative = signed && (u as i64) < 0;
        let mut u = if negative {
            (u as i64).unsigned_abs()
        } else {
            u
        };
        let mut prec: i64 = 0;
        if self.f.prec_present {
            prec = self.f.prec;
            if prec == 0 && u == 0 {
                let old = self.f.zero;
                self.f.zero = false;
                self.write_padding(self.f.wid);
                self.f.zero = old;
                return;
            }
        } else if self.f.zero && self.f.wid_present {
            prec = self.f.wid;
            if negative || self.f.plus || self.f.space {
                prec -= 1;
            }
        }
        if self.would_overflow(prec) {
            return;
        }
        // Built in reverse, like Go's right-to-left buffer fill.
        let mut rev: Vec<u8> = Vec::new();
        while u >= base {
            rev.push(digits[(u % base) as usize]);
            u /= base;
        }
        rev.push(digits[u as usize]);
        while (rev.len() as i64) < prec {
            rev.push(b'0');
        }
        if self.f.sharp {
            match base {
                2 => rev.extend_from_slice(b"b0"),
                8 if rev.last() != Some(&b'0') => rev.push(b'0'),
                16 => {
                    rev.push(digits[16]);
                    rev.push(b'0');
                }
                _ => {}
            }
        }
        if verb == 'O' {
            rev.extend_from_slice(b"o0");
        }
        if negative {
            rev.push(b'-');
        } else if self.f.plus {
            rev.push(b'+');
        } else if self.f.space {
            rev.push(b' ');
        }
        rev.reverse();
        let old = self.f.zero;
        self.f.zero = false;
        self.pad(&rev);
        self.f.zero = old;
    }

    fn truncate<'s>(&self, s: &'s [u8]) -> &'s [u8] {
        if self.f.prec_present {
            let mut n = self.f.prec;
            let mut i = 0;
            while i < s.len() {
                n -= 1;
                if n < 0 {
                    return &s[..i];
                }
                let (_, w) = decode_rune(&s[i..]);
                i += w.max(1);
            }
        }
        s
    }

    fn fmt_s(&mut self, s: &[u8]) {
        let s = self.truncate(s).to_vec();
        self.pad(&s);
    }

    fn fmt_sx(&mut self, s: &[u8], digits: &[u8; 17]) {
        let mut length = s.len() as i64;
        if self.f.prec_present && self.f.prec < length {
            length = self.f.prec;
        }
        let mut width = 2 * length;
        if width > 0 {
            if self.f.space {
                if self.f.sharp {
                    width *= 2;
                }
                width += length - 1;
            } else if self.f.sharp {
                width += 2;
            }
        } else {
            if self.f.wid_present {
                self.write_padding(self.f.wid);
            }
            return;
        }
        if self.f.wid_present && self.f.wid > width && !self.f.minus {
            self.write_padding(self.f.wid - width);
        }
        if self.f.sharp {
            self.buf.push(b'0');
            self.buf.push(digits[16]);
        }
        for (i, &c) in s.iter().take(length as usize).enumerate() {
            if self.f.space && i > 0 {
                self.buf.push(b' ');
                if self.f.sharp {
                    self.buf.push(b'0');
                    self.buf.push(digits[16]);
                }
            }
            self.buf.push(digits[(c >> 4) as usize]);
            self.buf.push(digits[(c & 0xF) as usize]);
        }
        if self.f.wid_present && self.f.wid > width && self.f.minus {
            self.write_padding(self.f.wid - width);
        }
    }

    fn fmt_q(&mut self, s: &[u8]) {
        let s = self.truncate(s).to_vec();
        if self.f.sharp && can_backquote(&s) {
            let mut q = vec![b'`'];
            q.extend_from_slice(&s);
            q.push(b'`');
            self.pad(&q);
            return;
        }
        let q = quote_with(&s, b'"', self.f.plus);
        self.pad(&q);
    }

    fn fmt_c(&mut self, c: u64) {
        let r = if c > u64::from(MAX_RUNE) {
            RUNE_ERROR
        } else {
            c as u32
        };
        let mut b = Vec::new();
        encode_rune(r, &mut b);
        self.pad(&b);
    }

    fn fmt_qc(&mut self, c: u64) {
        let r = if c > u64::from(MAX_RUNE) {
            RUNE_ERROR
        } else {
            c as u32
        };
        let q = quote_rune(r, self.f.plus);
        self.pad(&q);
    }

    fn fmt_float_raw(&mut self, v: f64, verb: u8, prec: i64) {
        let prec = if self.f.prec_present {
            self.f.prec
        } else {
            prec
        };
        let mut num = vec![b'+'];
        append_float(&mut num, v, verb, prec);
        if num.get(1) == Some(&b'-') || num.get(1) == Some(&b'+') {
            num.remove(0);
        }
        if self.f.space && num[0] == b'+' && !self.f.plus {
            num[0] = b' ';
        }
        if num.get(1) == Some(&b'I') || num.get(1) == Some(&b'N') {
            let old = self.f.zero;
            self.f.zero = false;
            if num[1] == b'N' && !self.f.space && !self.f.plus {
                num.remove(0);
            }
            self.pad(&num);
            self.f.zero = old;
            return;
        }
        if self.f.sharp && verb != b'b' {
            let mut digits: i64 = 0;
            if matches!(verb, b'v' | b'g' | b'G' | b'x') {
                digits = prec;
                if digits == -1 {
                    digits = 6;
                }
            }
            let mut tail: Vec<u8> = Vec::new();
            let mut has_point = false;
            let mut saw_nonzero = false;
            let mut i = 1;
            while i < num.len() {
                match num[i] {
                    b'.' => has_point = true,
                    b'p' | b'P' => {
                        tail.extend_from_slice(&num[i..]);
                        num.truncate(i);
                        break;
                    }
                    b'e' | b'E' if verb != b'x' && verb != b'X' => {
                        tail.extend_from_slice(&num[i..]);
                        num.truncate(i);
                        break;
                    }
                    c => {
                        if c != b'0' {
                            saw_nonzero = true;
                        }
                        if saw_nonzero {
                            digits -= 1;
                        }
                    }
                }
                i += 1;
            }
            if !has_point {
                if num.len() == 2 && num[1] == b'0' {
                    digits -= 1;
                }
                num.push(b'.');
            }
            while digits > 0 {
                num.push(b'0');
                digits -= 1;
            }
            num.extend_from_slice(&tail);
        }
        if self.f.plus || num[0] != b'+' {
            if self.f.zero && self.f.wid_present && self.f.wid > num.len() as i64 {
                self.buf.push(num[0]);
                self.write_padding(self.f.wid - num.len() as i64);
                self.buf.extend_from_slice(&num[1..]);
                return;
            }
            self.pad(&num);
            return;
        }
        self.pad(&num[1..]);
    }

    // ---- pp methods ----

    fn bad_verb(&mut self, verb: char, arg: Arg<'_, '_>) {
        self.buf.extend_from_slice(b"%!");
        push_char(&mut self.buf, verb);
        self.buf.push(b'(');
        match arg {
            Some(c) => {
                self.buf.extend_from_slice(c.type_name().as_bytes());
                self.buf.push(b'=');
                self.print_conc(c, 'v', 0);
            }
            None => self.buf.extend_from_slice(b"<nil>"),
        }
        self.buf.push(b')');
    }

    fn fmt_bool(&mut self, v: bool, verb: char, arg: &Conc<'_>) {
        match verb {
            't' | 'v' => self.fmt_boolean(v),
            _ => self.bad_verb(verb, Some(arg)),
        }
    }

    fn fmt_0x64(&mut self, v: u64, leading0x: bool) {
        let sharp = self.f.sharp;
        self.f.sharp = leading0x;
        self.fmt_integer(v, 16, false, 'v', LDIGITS);
        self.f.sharp = sharp;
    }

    fn fmt_int(&mut self, v: u64, signed: bool, verb: char, arg: &Conc<'_>) {
        match verb {
            'v' => {
                if self.f.sharp_v && !signed {
                    self.fmt_0x64(v, true);
                } else {
                    self.fmt_integer(v, 10, signed, verb, LDIGITS);
                }
            }
            'd' => self.fmt_integer(v, 10, signed, verb, LDIGITS),
            'b' => self.fmt_integer(v, 2, signed, verb, LDIGITS),
            'o' | 'O' => self.fmt_integer(v, 8, signed, verb, LDIGITS),
            'x' => self.fmt_integer(v, 16, signed, verb, LDIGITS),
            'X' => self.fmt_integer(v, 16, signed, verb, UDIGITS),
            'c' => self.fmt_c(v),
            'q' => self.fmt_qc(v),
            'U' => self.fmt_unicode(v),
            _ => self.bad_verb(verb, Some(arg)),
        }
    }

    fn fmt_float(&mut self, v: f64, verb: char, arg: &Conc<'_>) {
        match verb {
            'v' => self.fmt_float_raw(v, b'g', -1),
            'b' | 'g' | 'G' | 'x' | 'X' => self.fmt_float_raw(v, verb as u8, -1),
            'f' | 'e' | 'E' => self.fmt_float_raw(v, verb as u8, 6),
            'F' => self.fmt_float_raw(v, b'f', 6),
            _ => self.bad_verb(verb, Some(arg)),
        }
    }

    fn fmt_complex(&mut self, re: f64, im: f64, verb: char, arg: &Conc<'_>) {
        match verb {
            'v' | 'b' | 'g' | 'G' | 'x' | 'X' | 'f' | 'F' | 'e' | 'E' => {
                let old_plus = self.f.plus;
                self.buf.push(b'(');
                self.fmt_float(re, verb, arg);
                self.f.plus = true;
                self.fmt_float(im, verb, arg);
                self.buf.extend_from_slice(b"i)");
                self.f.plus = old_plus;
            }
            _ => self.bad_verb(verb, Some(arg)),
        }
    }

    fn fmt_string(&mut self, v: &[u8], verb: char, arg: &Conc<'_>) {
        match verb {
            'v' => {
                if self.f.sharp_v {
                    self.fmt_q(v)
                } else {
                    self.fmt_s(v)
                }
            }
            's' => self.fmt_s(v),
            'x' => self.fmt_sx(v, LDIGITS),
            'X' => self.fmt_sx(v, UDIGITS),
            'q' => self.fmt_q(v),
            _ => self.bad_verb(verb, Some(arg)),
        }
    }

    /// `printArg` for a non-nil argument.
    fn print_arg(&mut self, arg: Option<&Conc<'_>>, verb: char) {
        let Some(c) = arg else {
            match verb {
                'T' | 'v' => self.pad(b"<nil>"),
                _ => self.bad_verb(verb, None),
            }
            return;
        };
        match verb {
            'T' => {
                self.fmt_s(c.type_name().as_bytes());
                return;
            }
            'p' => {
                // Pointers are addresses; none of our types can be printed
                // reproducibly, so every kind reports a bad verb.
                self.bad_verb(verb, Some(c));
                return;
            }
            _ => {}
        }
        self.print_conc(c, verb, 0);
    }

    /// `printValue` for a concrete value.
    fn print_conc(&mut self, c: &Conc<'_>, verb: char, depth: usize) {
        match c {
            Conc::Bool(b) => self.fmt_bool(*b, verb, c),
            Conc::Int(n) => self.fmt_int(*n as u64, true, verb, c),
            Conc::Uint8(n) => self.fmt_int(u64::from(*n), false, verb, c),
            Conc::Float(f) => self.fmt_float(*f, verb, c),
            Conc::Complex(r, i) => self.fmt_complex(*r, *i, verb, c),
            Conc::Str(s) => self.fmt_string(s, verb, c),
            Conc::List(l) => {
                if self.f.sharp_v {
                    self.buf.extend_from_slice(c.type_name().as_bytes());
                    self.buf.push(b'{');
                    for (i, e) in l.iter().enumerate() {
                        if i > 0 {
                            self.buf.extend_from_slice(b", ");
                        }
                        self.print_elem(e, verb, depth + 1);
                    }
                    self.buf.push(b'}');
                } else {
                    self.buf.push(b'[');
                    for (i, e) in l.iter().enumerate() {
                        if i > 0 {
                            self.buf.push(b' ');
                        }
                        self.print_elem(e, verb, depth + 1);
                    }
                    self.buf.push(b']');
                }
            }
            Conc::Map(m) => {
                self.map_open(c);
                for (i, (k, v)) in m.iter().enumerate() {
                    self.map_sep(i);
                    self.print_conc(&Conc::str(k), verb, depth + 1);
                    self.buf.push(b':');
                    self.print_elem(v, verb, depth + 1);
                }
                self.map_close();
            }
            Conc::Dict(d) => {
                let m = d.snapshot();
                self.print_conc(&Conc::Map(&m), verb, depth);
            }
            Conc::StrMap(m) => {
                self.map_open(c);
                for (i, (k, v)) in m.iter().enumerate() {
                    self.map_sep(i);
                    self.print_conc(&Conc::str(k), verb, depth + 1);
                    self.buf.push(b':');
                    self.print_conc(&Conc::str(v), verb, depth + 1);
                }
                self.map_close();
            }
        }
    }

    fn map_open(&mut self, c: &Conc<'_>) {
        if self.f.sharp_v {
            self.buf.extend_from_slice(c.type_name().as_bytes());
            self.buf.push(b'{');
        } else {
            self.buf.extend_from_slice(b"map[");
        }
    }

    fn map_sep(&mut self, i: usize) {
        if i > 0 {
            if self.f.sharp_v {
                self.buf.extend_from_slice(b", ");
            } else {
                self.buf.push(b' ');
            }
        }
    }

    fn map_close(&mut self) {
        self.buf.push(if self.f.sharp_v { b'}' } else { b']' });
    }

    /// An `interface{}` slot of a slice or map.
    fn print_elem(&mut self, e: &Value, verb: char, depth: usize) {
        match Conc::from_elem(e) {
            Some(c) => self.print_conc(&c, verb, depth + 1),
            None => {
                if self.f.sharp_v {
                    self.buf.extend_from_slice(b"interface {}(nil)");
                } else {
                    self.buf.extend_from_slice(b"<nil>");
                }
            }
        }
    }

    fn clear_flags(&mut self) {
        self.f = Flags::default();
    }

    fn arg_number(
        &mut self,
        arg_num: usize,
        format: &[u8],
        i: usize,
        num_args: usize,
    ) -> (usize, usize, bool) {
        if format.len() <= i || format[i] != b'[' {
            return (arg_num, i, false);
        }
        self.reordered = true;
        let (index, wid, ok) = parse_arg_number(&format[i..]);
        if ok && index >= 0 && (index as usize) < num_args {
            return (index as usize, i + wid, true);
        }
        self.good_arg_num = false;
        (arg_num, i + wid, ok)
    }

    fn do_printf(&mut self, format: &[u8], a: &[Option<Conc<'_>>]) {
        let end = format.len();
        let mut arg_num = 0usize;
        let mut after_index;
        self.reordered = false;
        let mut i = 0usize;
        'format_loop: while i < end {
            if self.would_overflow(0) {
                return;
            }
            self.good_arg_num = true;
            let lasti = i;
            while i < end && format[i] != b'%' {
                i += 1;
            }
            if i > lasti {
                self.buf.extend_from_slice(&format[lasti..i]);
            }
            if i >= end {
                break;
            }
            i += 1;
            self.clear_flags();
            while i < end {
                let c = format[i];
                match c {
                    b'#' => self.f.sharp = true,
                    b'0' => self.f.zero = !self.f.minus,
                    b'+' => self.f.plus = true,
                    b'-' => {
                        self.f.minus = true;
                        self.f.zero = false;
                    }
                    b' ' => self.f.space = true,
                    _ => {
                        if c.is_ascii_lowercase() && arg_num < a.len() {
                            if c == b'v' {
                                self.f.sharp_v = self.f.sharp;
                                self.f.sharp = false;
                                self.f.plus_v = self.f.plus;
                                self.f.plus = false;
                            }
                            self.print_arg(a[arg_num].as_ref(), c as char);
                            arg_num += 1;
                            i += 1;
                            continue 'format_loop;
                        }
                        break;
                    }
                }
                i += 1;
            }
            (arg_num, i, after_index) = self.arg_number(arg_num, format, i, a.len());
            if i < end && format[i] == b'*' {
                i += 1;
                let (w, ok, n) = int_from_arg(a, arg_num);
                self.f.wid = w;
                self.f.wid_present = ok;
                arg_num = n;
                if !ok {
                    self.buf.extend_from_slice(b"%!(BADWIDTH)");
                }
                if self.f.wid < 0 {
                    self.f.wid = -self.f.wid;
                    self.f.minus = true;
                    self.f.zero = false;
                }
                after_index = false;
            } else {
                let (w, ok, ni) = parsenum(format, i, end);
                self.f.wid = w;
                self.f.wid_present = ok;
                i = ni;
                if after_index && self.f.wid_present {
                    self.good_arg_num = false;
                }
            }
            if i + 1 < end && format[i] == b'.' {
                i += 1;
                if after_index {
                    self.good_arg_num = false;
                }
                (arg_num, i, after_index) = self.arg_number(arg_num, format, i, a.len());
                if i < end && format[i] == b'*' {
                    i += 1;
                    let (p, ok, n) = int_from_arg(a, arg_num);
                    self.f.prec = p;
                    self.f.prec_present = ok;
                    arg_num = n;
                    if self.f.prec < 0 {
                        self.f.prec = 0;
                        self.f.prec_present = false;
                    }
                    if !self.f.prec_present {
                        self.buf.extend_from_slice(b"%!(BADPREC)");
                    }
                    after_index = false;
                } else {
                    let (p, ok, ni) = parsenum(format, i, end);
                    self.f.prec = p;
                    self.f.prec_present = ok;
                    i = ni;
                    if !self.f.prec_present {
                        self.f.prec = 0;
                        self.f.prec_present = true;
                    }
                }
            }
            if !after_index {
                (arg_num, i, _) = self.arg_number(arg_num, format, i, a.len());
            }
            if i >= end {
                self.buf.extend_from_slice(b"%!(NOVERB)");
                break;
            }
            let (verb, size) = if format[i] < 0x80 {
                (u32::from(format[i]), 1)
            } else {
                decode_rune(&format[i..])
            };
            let verb = char::from_u32(verb).unwrap_or('\u{FFFD}');
            i += size.max(1);
            if verb == '%' {
                self.buf.push(b'%');
            } else if !self.good_arg_num {
                self.buf.extend_from_slice(b"%!");
                push_char(&mut self.buf, verb);
                self.buf.extend_from_slice(b"(BADINDEX)");
            } else if arg_num >= a.len() {
                self.buf.extend_from_slice(b"%!");
                push_char(&mut self.buf, verb);
                self.buf.extend_from_slice(b"(MISSING)");
            } else {
                if verb == 'v' {
                    self.f.sharp_v = self.f.sharp;
                    self.f.sharp = false;
                    self.f.plus_v = self.f.plus;
                    self.f.plus = false;
                }
                self.print_arg(a[arg_num].as_ref(), verb);
                arg_num += 1;
            }
        }
        if !self.reordered && arg_num < a.len() {
            self.clear_flags();
            self.buf.extend_from_slice(b"%!(EXTRA ");
            for (i, arg) in a[arg_num..].iter().enumerate() {
                if i > 0 {
                    self.buf.extend_from_slice(b", ");
                }
                match arg {
                    None => self.buf.extend_from_slice(b"<nil>"),
                    Some(c) => {
                        self.buf.extend_from_slice(c.type_name().as_bytes());
                        self.buf.push(b'=');
                        self.print_arg(Some(c), 'v');
                    }
                }
            }
            self.buf.push(b')');
        }
    }
}

fn push_char(buf: &mut Vec<u8>, c: char) {
    let mut tmp = [0u8; 4];
    buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
}

fn too_large(x: i64) -> bool {
    !(-1_000_000..=1_000_000).contains(&x)
}

fn parsenum(s: &[u8], start: usize, end: usize) -> (i64, bool, usize) {
    if start >= end {
        return (0, false, end);
    }
    let mut num = 0i64;
    let mut isnum = false;
    let mut i = start;
    while i < end && s[i].is_ascii_digit() {
        if too_large(num) {
            return (0, false, end);
        }
        num = num * 10 + i64::from(s[i] - b'0');
        isnum = true;
        i += 1;
    }
    (num, isnum, i)
}

fn parse_arg_number(format: &[u8]) -> (i64, usize, bool) {
    if format.len() < 3 {
        return (0, 1, false);
    }
    for i in 1..format.len() {
        if format[i] == b']' {
            let (width, ok, newi) = parsenum(format, 1, i);
            if !ok || newi != i {
                return (0, i + 1, false);
            }
            return (width - 1, i + 1, true);
        }
    }
    (0, 1, false)
}

fn int_from_arg(a: &[Option<Conc<'_>>], arg_num: usize) -> (i64, bool, usize) {
    let mut new_arg = arg_num;
    let mut num = 0;
    let mut is_int = false;
    if let Some(arg) = a.get(arg_num) {
        match arg {
            Some(Conc::Int(n)) => {
                num = *n;
                is_int = true;
            }
            Some(Conc::Uint8(n)) => {
                num = i64::from(*n);
                is_int = true;
            }
            _ => {}
        }
        new_arg = arg_num + 1;
        if too_large(num) {
            num = 0;
            is_int = false;
        }
    }
    (num, is_int, new_arg)
}

/// `fmt.Sprintf`.
pub(crate) fn sprintf(format: &[u8], args: &[Option<Conc<'_>>]) -> Vec<u8> {
    let mut p = Printer::default();
    p.do_printf(format, args);
    p.buf
}

/// `fmt.Sprintf` when its result fits in `room` bytes; `None`, without building the text,
/// when a padding or precision would not (Go accepts widths up to a million per verb).
pub(crate) fn sprintf_within(
    format: &[u8],
    args: &[Option<Conc<'_>>],
    room: usize,
) -> Option<Vec<u8>> {
    let mut p = Printer {
        room: Some(room),
        ..Printer::default()
    };
    p.do_printf(format, args);
    if p.over || p.buf.len() > room {
        return None;
    }
    Some(p.buf)
}

/// `fmt.Sprint`: a space between operands when neither side is a string.
pub(crate) fn sprint(args: &[Option<Conc<'_>>]) -> Vec<u8> {
    let mut p = Printer::default();
    let mut prev_string = false;
    for (i, arg) in args.iter().enumerate() {
        let is_string = matches!(arg, Some(Conc::Str(_)));
        if i > 0 && !is_string && !prev_string {
            p.buf.push(b' ');
        }
        p.clear_flags();
        p.print_arg(arg.as_ref(), 'v');
        prev_string = is_string;
    }
    p.buf
}

/// `fmt.Sprintln`.
pub(crate) fn sprintln(args: &[Option<Conc<'_>>]) -> Vec<u8> {
    let mut p = Printer::default();
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            p.buf.push(b' ');
        }
        p.print_arg(arg.as_ref(), 'v');
    }
    p.buf.push(b'\n');
    p.buf
}

/// `fmt.Sprint` of a single value, the common case of printing an action.
pub(crate) fn sprint1(arg: Option<&Conc<'_>>) -> Vec<u8> {
    let mut p = Printer::default();
    p.print_arg(arg, 'v');
    p.buf
}

/// Go's `%q` of a string, used by error messages.
pub(crate) fn q(s: &[u8]) -> String {
    String::from_utf8_lossy(&quote_with(s, b'"', false)).into_owned()
}

/// Go's `%#U`, used by lexer errors.
pub(crate) fn sharp_u(r: char) -> String {
    let mut p = Printer::default();
    p.f.sharp = true;
    p.fmt_unicode(u64::from(u32::from(r)));
    String::from_utf8_lossy(&p.buf).into_owned()
}
