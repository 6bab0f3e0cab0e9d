package content

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// ReadJSONL reads one JSON value per line (question sets, question pairs),
// skipping blank lines. what names the records in errors, which give the
// line: "pairs line 3: ...". check, when not nil, vets each record.
func ReadJSONL[T any](r io.Reader, what string, check func(T) error) ([]T, error) {
	var out []T
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", what, n, err)
		}
		if check != nil {
			if err := check(v); err != nil {
				return nil, fmt.Errorf("%s line %d: %w", what, n, err)
			}
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}
