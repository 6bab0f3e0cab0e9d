package secret

import (
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// joinMarker splits the values in testdata/samples.txtar so that other
// secret scanners do not take the file for a leak; it is removed before a
// sample is scanned.
const joinMarker = "‖"

// TestSamples runs the gate over realistic secret shapes (refuse/...) and
// benign look-alikes (allow/...): every secret is found and no look-alike
// is. docs/secrets.md reports the figures.
func TestSamples(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/samples.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var secrets, found, benign, refused int
	for _, f := range ar.Files {
		text := strings.ReplaceAll(string(f.Data), joinMarker, "")
		got := Scan([]byte(text))
		switch {
		case strings.HasPrefix(f.Name, "refuse/"):
			secrets++
			if len(got) == 0 {
				t.Errorf("%s: no finding in\n%s", f.Name, text)
				continue
			}
			found++
		case strings.HasPrefix(f.Name, "allow/"):
			benign++
			if len(got) > 0 {
				refused++
				t.Errorf("%s: refused a look-alike: %+v", f.Name, got)
			}
		default:
			t.Errorf("%s: a sample is refuse/NAME or allow/NAME", f.Name)
		}
	}
	if secrets < 80 || benign < 24 {
		t.Errorf("the table has %d secrets and %d look-alikes; it needs at least 80 and 24", secrets, benign)
	}
	t.Logf("found %d of %d secrets, refused %d of %d look-alikes", found, secrets, refused, benign)
}
