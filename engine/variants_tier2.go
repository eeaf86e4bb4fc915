package engine

// tier2 returns the tier-2 built-in variants (RULES.md §2, "Tier 2").
func tier2() []Variant { return nil }
