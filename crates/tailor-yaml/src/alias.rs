//! go-yaml's defence against alias bombs ("billion laughs"), for code that expands aliases
//! while converting a tree (to JSON, to another node model).
//!
//! go-yaml v3 (and yaml.v2 since 2.2.8) count every node their decoder visits, and separately
//! the visits made through an alias. Once a document has made more than 1000 visits, 100 of
//! them through aliases, the share of alias visits may not pass a ratio that is 99% up to
//! 400,000 visits and falls to 10% at 4,000,000: alias expansion can add at most about
//! 400,000 nodes to a document, whatever its size. Honest documents stay far below (anchors
//! in manifests are shared labels or ports), and a bomb fails after at most ~4 million visits,
//! long before its expansion could fill memory. A cycle (`&a [*a]`) is refused outright.

use crate::node::Node;
use crate::Error;

/// Up to this many visits, 99% of them may come from aliases (go-yaml `alias_ratio_range_low`).
const RATIO_RANGE_LOW: usize = 400_000;
/// From this many visits, 10% may (go-yaml `alias_ratio_range_high`).
const RATIO_RANGE_HIGH: usize = 4_000_000;
/// Deepest nesting of expansion (collections and alias hops), so that converting recursively
/// cannot overflow the stack; go-yaml's parser stops nesting at the same depth.
pub const MAX_EXPANSION_DEPTH: usize = 10_000;

/// go-yaml's `allowedAliasRatio`.
pub fn allowed_alias_ratio(decodes: usize) -> f64 {
    if decodes <= RATIO_RANGE_LOW {
        0.99
    } else if decodes >= RATIO_RANGE_HIGH {
        0.10
    } else {
        let range = (RATIO_RANGE_HIGH - RATIO_RANGE_LOW) as f64;
        0.99 - 0.89 * ((decodes - RATIO_RANGE_LOW) as f64 / range)
    }
}

/// Counts one conversion of one tree. Call [`AliasGuard::visit`] on entering every node the
/// conversion decodes (keys included, merge keys `<<` excepted, as go-yaml), and wrap the
/// expansion of an alias in [`AliasGuard::enter_alias`] / [`AliasGuard::leave_alias`].
#[derive(Debug, Default)]
pub struct AliasGuard<'n> {
    decodes: usize,
    aliased: usize,
    /// The alias nodes being expanded, outermost first.
    expanding: Vec<&'n Node>,
}

impl<'n> AliasGuard<'n> {
    pub fn new() -> Self {
        AliasGuard::default()
    }

    /// Counts a node, failing as go-yaml does ("document contains excessive aliasing").
    /// `depth` is the caller's current nesting, checked against [`MAX_EXPANSION_DEPTH`].
    pub fn visit(&mut self, depth: usize) -> Result<(), Error> {
        self.decodes += 1;
        if !self.expanding.is_empty() {
            self.aliased += 1;
        }
        if self.aliased > 100
            && self.decodes > 1000
            && self.aliased as f64 / self.decodes as f64 > allowed_alias_ratio(self.decodes)
        {
            return Err(Error::new("document contains excessive aliasing", 0, 0));
        }
        if depth > MAX_EXPANSION_DEPTH {
            return Err(Error::new(
                format!("exceeded max depth of {MAX_EXPANSION_DEPTH} nested nodes"),
                0,
                0,
            ));
        }
        Ok(())
    }

    /// Starts expanding `alias` (named `name`); go-yaml's error if it is already being
    /// expanded, i.e. the anchored node contains an alias to itself.
    pub fn enter_alias(&mut self, alias: &'n Node, name: &str) -> Result<(), Error> {
        // Alias chains are short (the ratio bounds them), so a linear scan is enough.
        if self.expanding.iter().any(|a| std::ptr::eq(*a, alias)) {
            return Err(Error::new(
                format!("anchor '{name}' value contains itself"),
                0,
                0,
            ));
        }
        self.expanding.push(alias);
        Ok(())
    }

    pub fn leave_alias(&mut self) {
        self.expanding.pop();
    }

    /// Nodes visited so far, and how many of them through an alias.
    pub fn counts(&self) -> (usize, usize) {
        (self.decodes, self.aliased)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_follows_go_yaml() {
        assert_eq!(allowed_alias_ratio(0), 0.99);
        assert_eq!(allowed_alias_ratio(400_000), 0.99);
        assert!((allowed_alias_ratio(2_200_000) - 0.545).abs() < 1e-9);
        assert_eq!(allowed_alias_ratio(4_000_000), 0.10);
        assert_eq!(allowed_alias_ratio(usize::MAX), 0.10);
    }

    #[test]
    fn thresholds_before_the_ratio_applies() {
        let n = Node::plain("x");
        // Up to 1000 visits, all of them may be through aliases; the 1001st is refused.
        let mut g = AliasGuard::new();
        g.enter_alias(&n, "a").unwrap();
        for _ in 0..1000 {
            g.visit(1).unwrap();
        }
        assert_eq!(g.counts(), (1000, 1000));
        let e = g.visit(1).unwrap_err();
        assert_eq!(e.to_string(), "yaml: document contains excessive aliasing");
        // Up to 100 alias visits are fine in any document.
        let mut g = AliasGuard::new();
        for _ in 0..2000 {
            g.visit(0).unwrap();
        }
        g.enter_alias(&n, "a").unwrap();
        for _ in 0..100 {
            g.visit(1).unwrap();
        }
        g.leave_alias();
        // Past both thresholds the share decides: 2000 plain visits allow 198,000 aliased
        // ones (99% of 200,000), not one more.
        let mut g = AliasGuard::new();
        for _ in 0..2000 {
            g.visit(0).unwrap();
        }
        g.enter_alias(&n, "a").unwrap();
        for _ in 0..198_000 {
            g.visit(1).unwrap();
        }
        assert!(g.visit(1).is_err());
    }

    #[test]
    fn cycles_and_depth_are_refused() {
        let a = Node::plain("a");
        let b = Node::plain("b");
        let mut g = AliasGuard::new();
        g.enter_alias(&a, "x").unwrap();
        g.enter_alias(&b, "y").unwrap();
        let e = g.enter_alias(&a, "x").unwrap_err();
        assert_eq!(e.message, "anchor 'x' value contains itself");
        g.leave_alias();
        g.leave_alias();
        g.enter_alias(&a, "x").unwrap();
        let mut g = AliasGuard::new();
        g.visit(MAX_EXPANSION_DEPTH).unwrap();
        assert!(g.visit(MAX_EXPANSION_DEPTH + 1).is_err());
    }
}
