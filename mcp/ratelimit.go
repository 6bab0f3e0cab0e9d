package mcp

import (
	"fmt"
	"net"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/time/rate"
)

// limiter keeps one token bucket per caller: the bearer token's name, or
// the client's address when there is no token.
type limiter struct {
	rate  rate.Limit
	burst int

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

func newLimiter(r float64, burst int) *limiter {
	if r == 0 {
		r = DefaultRate
	}
	if burst <= 0 {
		burst = max(DefaultBurst, int(r))
	}
	return &limiter{rate: rate.Limit(r), burst: burst, buckets: map[string]*rate.Limiter{}}
}

func (l *limiter) bucket(key string) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		b = rate.NewLimiter(l.rate, l.burst)
		l.buckets[key] = b
	}
	return b
}

func (l *limiter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, who := "", ""
		if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
			key, who = "token:"+ti.UserID, fmt.Sprintf("token %q", ti.UserID)
		} else {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			if err != nil {
				host = r.RemoteAddr
			}
			key, who = "addr:"+host, "client "+host
		}
		res := l.bucket(key).Reserve()
		if d := res.Delay(); d > 0 {
			res.Cancel()
			w.Header().Set("Retry-After", retryAfter(d))
			http.Error(w, fmt.Sprintf("too many requests: %s is limited to %g requests per second (burst %d); retry in %s", who, float64(l.rate), l.burst, retryAfter(d)+"s"), http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}
