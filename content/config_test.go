package content

import (
	"strings"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig([]byte("name: team\nttl: 30d\nfile_back: {window: 2w}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.TTLOrDefault() != 30*24*time.Hour || c.WindowOrDefault() != 14*24*time.Hour || c.Spoke() != DefaultSpokeLimit || !c.CompoundingOn() {
		t.Fatalf("%+v", c)
	}
	if _, err := ParseConfig([]byte("name: x\nspoke_limt: 3\n")); err == nil || !strings.Contains(err.Error(), "spoke_limt") {
		t.Fatalf("typo not caught: %v", err)
	}
	if _, err := ParseConfig([]byte("")); err != nil {
		t.Fatalf("empty kb.yaml: %v", err)
	}
	back, err := ParseConfig(c.Bytes())
	if err != nil || back.TTLOrDefault() != c.TTLOrDefault() {
		t.Fatalf("config did not round-trip: %v %+v", err, back)
	}
}

// A duration too long to be meant, too long for time.Duration, negative or
// not a number is refused, not wrapped into a date in the past.
func TestParseDurationBounds(t *testing.T) {
	for _, s := range []string{"200000d", "40000w", "NaNd", "Infd", "-1d", "-5h", "900000h"} {
		if d, err := ParseDuration(s); err == nil {
			t.Errorf("ParseDuration(%q) = %v, want an error", s, d)
		}
	}
	for s, want := range map[string]time.Duration{"90d": 90 * 24 * time.Hour, "2w": 14 * 24 * time.Hour, "36h": 36 * time.Hour, "36500d": 36500 * 24 * time.Hour} {
		if d, err := ParseDuration(s); err != nil || d != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", s, d, err, want)
		}
	}
}
