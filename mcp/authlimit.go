package mcp

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Failed authentications a client address may make: a burst of
// authFailureBurst, then one every authFailureEvery. Past that, every
// request from the address gets 429 until the bucket refills, whatever
// token it carries, so that tokens cannot be guessed at the request rate.
const (
	authFailureBurst = 10
	authFailureEvery = 6 * time.Second
	// maxFailureBuckets bounds the addresses remembered; past it, the
	// addresses whose bucket has refilled are forgotten.
	maxFailureBuckets = 10000
)

// authFailures counts failed authentications per client address.
type authFailures struct {
	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

func newAuthFailures() *authFailures {
	return &authFailures{buckets: map[string]*rate.Limiter{}}
}

func (a *authFailures) bucket(addr string) *rate.Limiter {
	a.mu.Lock()
	defer a.mu.Unlock()
	b := a.buckets[addr]
	if b == nil {
		if len(a.buckets) >= maxFailureBuckets {
			now := time.Now()
			for k, v := range a.buckets {
				if v.TokensAt(now) >= authFailureBurst {
					delete(a.buckets, k)
				}
			}
		}
		b = rate.NewLimiter(rate.Every(authFailureEvery), authFailureBurst)
		a.buckets[addr] = b
	}
	return b
}

// wrap refuses an address that spent its failures, and charges a 401 from
// next (the bearer token check) to the address.
func (a *authFailures) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			addr = r.RemoteAddr
		}
		b := a.bucket(addr)
		if b.Tokens() < 1 {
			wait := time.Duration((1 - b.Tokens()) * float64(authFailureEvery))
			w.Header().Set("Retry-After", retryAfter(wait))
			http.Error(w, fmt.Sprintf("too many failed authentications from %s; retry in %ss", addr, retryAfter(wait)), http.StatusTooManyRequests)
			return
		}
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.code == http.StatusUnauthorized {
			b.Allow()
		}
	})
}

// statusWriter records the status a handler answered with. It passes
// Flush through: responses stream as server-sent events.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
