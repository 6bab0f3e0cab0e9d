package secret

import (
	"regexp"
	"strings"
	"sync"
)

// A Kubernetes container's environment names a variable on one line and
// gives its value on the next:
//
//   - name: POSTGRES_PASSWORD
//     value: "..."
var (
	envName  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*-?\s*name:\s*["']?([A-Za-z0-9_.\-]+)["']?\s*$`) })
	envValue = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\s*value:\s*)(?:"([^"\s]+)"|'([^'\s]+)'|([^\s"']+))\s*$`)
	})
	envNames = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9_.\-]*` + secretNames + `$`) })
	pwNames  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[a-z0-9_.\-]*(?:password|passwd|passphrase|pwd)|(?:[a-z0-9]+[_\-.])*(?:pass|pw))$`)
	})
)

// namedValueAt reports a secret given as the value of the variable the
// previous line names: its kind and 1-based column, or 0.
func namedValueAt(prev, line string) (string, int) {
	if !strings.Contains(line, "value:") || !strings.Contains(prev, "name:") {
		return "", 0
	}
	n := envName().FindStringSubmatch(strings.TrimSuffix(prev, "\r"))
	m := envValue().FindStringSubmatchIndex(line)
	if n == nil || m == nil {
		return "", 0
	}
	vs, ve := valueSpan(m, []int{2, 3, 4})
	v, name := line[vs:ve], strings.ToLower(n[1])
	switch {
	case envNames().MatchString(name) && highEntropy(v):
		return "secret assignment", m[3] + 1
	case pwNames().MatchString(name) && strongPassword(v):
		return "password", m[3] + 1
	}
	return "", 0
}
