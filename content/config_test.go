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
