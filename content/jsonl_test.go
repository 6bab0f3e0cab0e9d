package content

import (
	"errors"
	"strings"
	"testing"
)

func TestReadJSONL(t *testing.T) {
	type rec struct{ ID string }
	got, err := ReadJSONL[rec](strings.NewReader("{\"ID\":\"a\"}\n\n  {\"ID\":\"b\"}\n"), "records", nil)
	if err != nil || len(got) != 2 || got[1].ID != "b" {
		t.Fatalf("got %v, %v", got, err)
	}
	_, err = ReadJSONL[rec](strings.NewReader("{\"ID\":\"a\"}\n{bad\n"), "records", nil)
	if err == nil || !strings.HasPrefix(err.Error(), "records line 2: ") {
		t.Fatalf("bad line: %v", err)
	}
	_, err = ReadJSONL(strings.NewReader("{\"ID\":\"\"}\n"), "records", func(r rec) error {
		if r.ID == "" {
			return errors.New("no id")
		}
		return nil
	})
	if err == nil || err.Error() != "records line 1: no id" {
		t.Fatalf("check: %v", err)
	}
}
