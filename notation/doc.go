// Package notation connects the grammar's syntax trees to the engine:
// replaying records, writing canonical records, OTN position and rules
// strings, and board diagrams (ASCII for mail, Unicode for terminals, SVG
// and PNG for people who would rather look than read).
//
// Square names and OTN conventions follow RULES.md §0.
package notation
