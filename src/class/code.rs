//! A class result code as text: the run's numbers packed into bits, a CRC-32 over them, written
//! in Crockford's base32 (no I, L, O, U; read case-blind, I and L as 1, O as 0) in groups of
//! five for reading aloud. Every number is stored losslessly: values that are a whole number
//! over a small common denominator (CartPole's mean returns, success fractions) as that
//! numerator, others as their 64 bits.

use crate::error::{CodeProblem, Error, Result};

/// The code's version: its first five bits.
pub const VERSION: u8 = 1;
/// Characters per group.
const GROUP: usize = 5;
/// The alphabet, five bits a character.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Denominators tried for the shared one (0 means none: raw bits).
const MAX_DENOMINATOR: u64 = 4096;

/// What one code says of one seed's run.
#[derive(Debug, Clone, PartialEq)]
pub struct Code {
    /// The trainer's index in the registry's `NAMES`.
    pub trainer: u8,
    /// The configuration's hash (40 bits).
    pub config: u64,
    /// The seed.
    pub seed: u64,
    /// The final score ([`crate::train::Score`]).
    pub score: f64,
    /// Where the goal was reached for good, if it was.
    pub reached: Option<u64>,
    /// The score at the checkpoints: (x, y) — transitions or iteration, and the score.
    pub curve: Vec<(u64, f64)>,
    /// The final parameters' fingerprint (40 bits).
    pub fingerprint: u64,
}

/// Bits written most significant first.
#[derive(Default)]
struct Bits {
    bits: Vec<bool>,
}

impl Bits {
    fn put(&mut self, value: u64, n: usize) {
        for i in (0..n).rev() {
            self.bits.push((value >> i) & 1 == 1);
        }
    }
    /// An unsigned number in 4-bit chunks, each with a continuation bit.
    fn varint(&mut self, mut value: u64) {
        loop {
            let chunk = value & 0xF;
            value >>= 4;
            self.put(u64::from(value != 0), 1);
            self.put(chunk, 4);
            if value == 0 {
                break;
            }
        }
    }
}

struct Reader<'a> {
    bits: &'a [bool],
    at: usize,
}

impl Reader<'_> {
    fn get(&mut self, n: usize) -> Result<u64> {
        if self.at + n > self.bits.len() {
            return Err(Error::class_code(0, CodeProblem::Checksum));
        }
        let v = self.bits[self.at..self.at + n]
            .iter()
            .fold(0u64, |v, &b| (v << 1) | u64::from(b));
        self.at += n;
        Ok(v)
    }
    fn varint(&mut self) -> Result<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(4) {
            let more = self.get(1)? == 1;
            value |= self.get(4)? << shift;
            if !more {
                return Ok(value);
            }
        }
        Err(Error::class_code(0, CodeProblem::Checksum))
    }
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// The smallest denominator `d` for which every value is exactly `k / d` for a whole `k`
/// (0 when there is none up to [`MAX_DENOMINATOR`]).
fn common_denominator(values: &[f64]) -> u64 {
    (1..=MAX_DENOMINATOR)
        .find(|&d| values.iter().all(|&v| numerator(v, d).is_some()))
        .unwrap_or(0)
}

/// `k` with `k / d == v` to the bit, if there is one that fits.
fn numerator(v: f64, d: u64) -> Option<i64> {
    let k = (v * d as f64).round();
    (k.abs() < (1u64 << 52) as f64 && (k / d as f64).to_bits() == v.to_bits()).then_some(k as i64)
}

/// CRC-32 (IEEE) of the payload's bits, bit by bit.
fn crc32(bits: &[bool]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bits {
        let top = ((crc >> 31) & 1 == 1) ^ b;
        crc <<= 1;
        if top {
            crc ^= 0x04C1_1DB7;
        }
    }
    !crc
}

impl Code {
    /// The code as text: `XXXXX-XXXXX-…`.
    pub fn encode(&self) -> String {
        let mut b = Bits::default();
        b.put(u64::from(VERSION), 5);
        b.put(u64::from(self.trainer), 3);
        b.put(self.config, 40);
        b.varint(self.seed);
        b.put(self.fingerprint, 40);
        b.varint(self.reached.map_or(0, |r| r + 1));
        b.put(self.curve.len() as u64, 4);
        let xs: Vec<u64> = self.curve.iter().map(|p| p.0).collect();
        let steps: Vec<u64> = xs.windows(2).map(|w| w[1].wrapping_sub(w[0])).collect();
        let uniform = steps.windows(2).all(|w| w[0] == w[1]);
        b.put(u64::from(uniform), 1);
        if let Some(&x0) = xs.first() {
            b.varint(x0);
        }
        if uniform {
            if let Some(&s) = steps.first() {
                b.varint(s);
            }
        } else {
            steps.iter().for_each(|&s| b.varint(s));
        }
        let final_is_last = self
            .curve
            .last()
            .is_some_and(|p| p.1.to_bits() == self.score.to_bits());
        b.put(u64::from(final_is_last), 1);
        let mut values: Vec<f64> = self.curve.iter().map(|p| p.1).collect();
        if !final_is_last {
            values.push(self.score);
        }
        let d = common_denominator(&values);
        b.varint(d);
        for &v in &values {
            match numerator(v, d.max(1)).filter(|_| d > 0) {
                Some(k) => b.varint(zigzag(k)),
                None => b.put(v.to_bits(), 64),
            }
        }
        let crc = crc32(&b.bits);
        b.put(u64::from(crc), 32);
        while b.bits.len() % 5 != 0 {
            b.bits.push(false);
        }
        let chars: Vec<u8> = b
            .bits
            .chunks(5)
            .map(|c| ALPHABET[c.iter().fold(0usize, |v, &x| (v << 1) | usize::from(x))])
            .collect();
        chars
            .chunks(GROUP)
            .map(|g| String::from_utf8_lossy(g).into_owned())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// Reads a code written by [`Code::encode`] (spaces, dashes and case do not matter).
    /// Errors name the problem with line 0.
    pub fn decode(text: &str) -> Result<Code> {
        let mut bits = Vec::new();
        for c in text.chars().filter(|c| !c.is_whitespace() && *c != '-') {
            let up = match c.to_ascii_uppercase() {
                'O' => '0',
                'I' | 'L' => '1',
                u => u,
            };
            let Some(v) = ALPHABET.iter().position(|&a| char::from(a) == up) else {
                return Err(Error::class_code(0, CodeProblem::Character(c)));
            };
            (0..5).rev().for_each(|i| bits.push((v >> i) & 1 == 1));
        }
        if bits.is_empty() {
            return Err(Error::class_code(0, CodeProblem::Empty));
        }
        // The payload is everything before the CRC and the padding (under five bits).
        let checked = (0..5).any(|pad| {
            let Some(end) = bits.len().checked_sub(32 + pad) else {
                return false;
            };
            let mut r = Reader {
                bits: &bits,
                at: end,
            };
            bits[end + 32..].iter().all(|b| !b)
                && r.get(32).is_ok_and(|c| c == u64::from(crc32(&bits[..end])))
        });
        if !checked {
            return Err(Error::class_code(0, CodeProblem::Checksum));
        }
        let mut r = Reader { bits: &bits, at: 0 };
        let version = r.get(5)? as u8;
        if version != VERSION {
            return Err(Error::class_code(0, CodeProblem::Version(version)));
        }
        let trainer = r.get(3)? as u8;
        let config = r.get(40)?;
        let seed = r.varint()?;
        let fingerprint = r.get(40)?;
        let reached = r.varint()?.checked_sub(1);
        let n = r.get(4)? as usize;
        let uniform = r.get(1)? == 1;
        let mut xs = Vec::with_capacity(n);
        if n > 0 {
            xs.push(r.varint()?);
        }
        let step = if uniform && n > 1 { r.varint()? } else { 0 };
        for i in 1..n {
            let s = if uniform { step } else { r.varint()? };
            xs.push(xs[i - 1].wrapping_add(s));
        }
        let final_is_last = r.get(1)? == 1 && n > 0;
        let d = r.varint()?;
        let count = n + usize::from(!final_is_last);
        let mut values = Vec::with_capacity(count);
        for _ in 0..count {
            values.push(match d {
                0 => f64::from_bits(r.get(64)?),
                d => unzigzag(r.varint()?) as f64 / d as f64,
            });
        }
        let score = if final_is_last {
            values[n - 1]
        } else {
            values[n]
        };
        Ok(Code {
            trainer,
            config,
            seed,
            score,
            reached,
            curve: xs.into_iter().zip(values).collect(),
            fingerprint,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Code {
        Code {
            trainer: 2,
            config: 0xAB_CDEF_0123,
            seed: 1234,
            score: 187.3,
            reached: None,
            curve: (0..8).map(|i| (i * 2048, 9.5 + 25.1 * i as f64)).collect(),
            fingerprint: 0x12_3456_789A,
        }
    }

    #[test]
    fn a_code_round_trips_to_the_bit_and_reads_case_blind() {
        let c = sample();
        let text = c.encode();
        assert_eq!(Code::decode(&text).unwrap(), c);
        assert_eq!(
            Code::decode(&text.to_lowercase().replace('-', " ")).unwrap(),
            c
        );
        // Values that are no small fraction go as raw bits, still exactly.
        let odd = Code {
            score: 0.1 + 0.2,
            reached: Some(40_960),
            curve: vec![(1, 1.0 / 3.0), (2, std::f64::consts::PI), (7, -2.5)],
            ..c
        };
        assert_eq!(Code::decode(&odd.encode()).unwrap(), odd);
    }

    #[test]
    fn typos_truncation_and_other_versions_are_refused() {
        let text = sample().encode();
        let problem = |t: &str| match Code::decode(t).map_err(|e| e.kind().clone()) {
            Err(crate::error::ErrorKind::ClassCode { problem, .. }) => problem,
            other => panic!("{other:?}"),
        };
        // Every single-character change is caught.
        for (i, c) in text.char_indices().filter(|(_, c)| *c != '-') {
            let other = if c == '7' { '8' } else { '7' };
            let typo = format!("{}{other}{}", &text[..i], &text[i + 1..]);
            assert_eq!(problem(&typo), CodeProblem::Checksum, "{typo}");
        }
        assert_eq!(problem(&text[..text.len() - 3]), CodeProblem::Checksum);
        assert_eq!(problem(&format!("{text}7")), CodeProblem::Checksum);
        assert_eq!(problem("ABCU"), CodeProblem::Character('U'));
        assert_eq!(problem(" - "), CodeProblem::Empty);
        // A well-formed code of version 2.
        let mut b = Bits::default();
        b.put(2, 5);
        b.put(0, 35);
        let crc = crc32(&b.bits);
        b.put(u64::from(crc), 32);
        b.put(0, 3);
        let chars: String = b
            .bits
            .chunks(5)
            .map(|c| char::from(ALPHABET[c.iter().fold(0usize, |v, &x| (v << 1) | usize::from(x))]))
            .collect();
        assert_eq!(problem(&chars), CodeProblem::Version(2));
    }
}
