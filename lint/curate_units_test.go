package lint

import "testing"

// TestClaimValues: frequencies and durations are normalised to one unit,
// so that values written in different units compare; dates without a
// year, ordinal weekdays and capitalized products are values too.
func TestClaimValues(t *testing.T) {
	for _, tc := range []struct {
		text       string
		kind       byte
		unit, norm string
	}{
		{"SIGs meet every 3 weeks.", valInterval, "", "21d"},
		{"SIGs must meet at least once a month.", valInterval, "", "30d"},
		{"Regular SIG Meeting (biweekly).", valInterval, "", "14d"},
		{"The meeting happens every other week.", valInterval, "", "14d"},
		{"The team observes two quiet weeks a year.", valInterval, "", "182.5d"},
		{"An idle instance is destroyed after 48h.", valDuration, "", "2880m"},
		{"An idle instance is destroyed after 2 days.", valDuration, "", "2880m"},
		{"The call lasts two hours.", valDuration, "", "120m"},
		{"followed by a 3-month period of testing", valDuration, "", "129600m"},
		{"TryBots complete in 5-10 minutes.", valDuration, "", "5-10m"},
		{"Reports are merged by March 15 each year.", valDate, "", "--03-15"},
		{"Minor releases ship on the first Tuesday of each month.", valWeekday, "", "1 tue"},
		{"QEMU 8.2 or later is required.", valVersion, "qemu", "8.2"},
		{"backported to the three most recent release branches", valCount, singular("branches"), "3"},
	} {
		var got []string
		found := false
		for _, v := range claimValuesOf(tc.text) {
			got = append(got, string(v.Kind)+" "+v.Unit+" "+v.Norm)
			found = found || (v.Kind == tc.kind && v.Norm == tc.norm && v.Unit == tc.unit)
		}
		if !found {
			t.Errorf("claimValuesOf(%q) = %q, want %c %q %q", tc.text, got, tc.kind, tc.unit, tc.norm)
		}
	}
	if vs := claimValuesOf("The call is 90 minutes long."); len(vs) != 1 || vs[0].Norm == "120m" {
		t.Errorf("90 minutes: %+v", vs)
	}
}

// TestSameValue: times in different zones are one when some offset of
// each zone makes them one instant; a weekday without its ordinal is any
// of them.
func TestSameValue(t *testing.T) {
	for _, tc := range []struct {
		kind byte
		a, b string
		want bool
	}{
		{valTime, "09:00 pt", "17:00 utc", true},
		{valTime, "09:00 pt", "16:00 utc", true},
		{valTime, "09:00 pt", "19:00 utc", false},
		{valTime, "10:00", "10:00 pt", true},
		{valWeekday, "wed", "1 wed", true},
		{valWeekday, "1 wed", "3 wed", false},
		{valWeekday, "tue", "wed", false},
	} {
		if got := sameValue(&claim{Kind: tc.kind, Value: tc.a}, &claim{Kind: tc.kind, Value: tc.b}); got != tc.want {
			t.Errorf("sameValue(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}

// TestBounds: a value inside another's bound keeps to it; two different
// leasts disagree.
func TestBounds(t *testing.T) {
	claimOf := func(text string) *claim {
		cs := claimsOf(sentence{Line: 1, Text: text}, claimValuesOf(text), nil, nil)
		if len(cs) != 1 {
			t.Fatalf("claimsOf(%q) = %+v", text, cs)
		}
		return &cs[0]
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"SIGs must meet at least once a month.", "SIG meetings are weekly.", true},
		{"SIGs must meet at least once a month.", "SIG meetings happen every 6 weeks.", false},
		{"Members need at least 3 months of membership.", "Members need at least 6 months of membership.", false},
		{"Posts go live within 48 hours of review.", "Posts go live one day after review.", true},
	} {
		if got := withinBounds(claimOf(tc.a), claimOf(tc.b)); got != tc.want {
			t.Errorf("withinBounds(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}

// TestClaimLine: a value is cited on its own line of a wrapped sentence.
func TestClaimLine(t *testing.T) {
	f := extractFacts("pages/x.md", []byte("# Inactive members\n\nMembers with no contributions across any organization\nwithin 18 months are removed during the yearly cleanup.\n"))
	for _, c := range f.Claims {
		if c.Value == "777600m" && c.Line != 4 {
			t.Errorf("18 months cited on line %d, want 4", c.Line)
		}
	}
	if len(f.Claims) == 0 {
		t.Error("no claims")
	}
}

// TestQualifiedApart: claims qualified by different values of one kind
// are about different cases.
func TestQualifiedApart(t *testing.T) {
	a := &claim{Frame: []string{"kernel", "later", "v:go=1.24"}}
	b := &claim{Frame: []string{"kernel", "required", "v:go=1.23"}}
	c := &claim{Frame: []string{"kernel", "newer", "v:go=1.24"}}
	if !qualifiedApart(a, b) || qualifiedApart(a, c) {
		t.Error("qualifiedApart: Go 1.24 and Go 1.23 are different cases, Go 1.24 twice is one")
	}
}
