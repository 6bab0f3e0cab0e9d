package content

import (
	"errors"
	"fmt"
	"strings"
)

// Classification levels, lowest first. A label pt does not know ranks
// above every level, so a page carrying one is served to no token.
const (
	Restricted   = "RESTRICTED"
	Confidential = "CONFIDENTIAL"
	Secret       = "SECRET"
	TopSecret    = "TOP SECRET"
)

// ErrBadClearance is wrapped by the refusal of a clearance pt does not know.
var ErrBadClearance = errors.New("unknown clearance")

// classificationRank orders the levels; unknown labels rank above them all.
func classificationRank(label string) int {
	switch normLabel(label) {
	case "", Unclassified:
		return 0
	case Restricted:
		return 1
	case Confidential:
		return 2
	case Secret:
		return 3
	case TopSecret:
		return 4
	}
	return 5
}

func normLabel(s string) string {
	return strings.Join(strings.Fields(strings.ToUpper(strings.ReplaceAll(s, "_", " "))), " ")
}

// ParseClearance returns the canonical level of a clearance given by a
// person ("" is UNCLASSIFIED; case and underscores do not matter).
func ParseClearance(s string) (string, error) {
	n := normLabel(s)
	if n == "" {
		return Unclassified, nil
	}
	if classificationRank(n) > classificationRank(TopSecret) {
		return "", fmt.Errorf("%w %q (UNCLASSIFIED, RESTRICTED, CONFIDENTIAL, SECRET or TOP SECRET)", ErrBadClearance, s)
	}
	return n, nil
}

// Cleared reports whether a reader with clearance may read a page
// classified as classification ("" is the space's default, def).
func Cleared(clearance, classification, def string) bool {
	if classification == "" {
		classification = def
	}
	return classificationRank(classification) <= classificationRank(clearance)
}
