package mcp

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/time/rate"
)

// maxRateBuckets bounds the callers a limiter remembers; past it, those
// whose bucket has refilled are forgotten (a client may invent session ids).
const maxRateBuckets = 10000

// limiter keeps one token bucket per caller: the bearer token's name, or,
// without tokens (a loopback address, where every client is one of the
// developer's own), the MCP session. Rate limits protect a server from
// other people; keyed by address, a developer's agents would share one
// bucket and throttle each other.
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
		if len(l.buckets) >= maxRateBuckets {
			now := time.Now()
			for k, v := range l.buckets {
				if v.TokensAt(now) >= float64(l.burst) {
					delete(l.buckets, k)
				}
			}
		}
		b = rate.NewLimiter(l.rate, l.burst)
		l.buckets[key] = b
	}
	return b
}

// callerKey names the bucket a request is charged to, and the caller in
// the message of a 429. A request that opens a session (it has no session
// id yet) is charged to the local clients together.
func callerKey(r *http.Request) (key, who string) {
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		return "token:" + ti.UserID, fmt.Sprintf("token %q", ti.UserID)
	}
	if id := r.Header.Get(sessionHeader); id != "" {
		return "session:" + id, fmt.Sprintf("session %q", id)
	}
	return "local", "opening a session"
}

// sessionHeader carries the MCP session id of streamable HTTP.
const sessionHeader = "Mcp-Session-Id"

func (l *limiter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, who := callerKey(r)
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
