package template

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Deploy executions and service account tokens. Landscaper mints a new
// token at every reconcile, so its deploy item changes every time. Here a
// deploy execution renders at plan too, without a network, and a plan
// that changed at every run would never be empty. So the token a deploy
// execution's getServiceAccountKubeconfig gets is minted only during
// apply and recorded (private state, never an attribute); later renders,
// at plan and at apply, reuse the record while it has more than half of
// its lifetime left. At plan, a call without such a record cannot be
// answered: the render fails with ErrTokenAtApply, which the plan turns
// into deploy items known after apply.

// ErrTokenAtApply says a deploy execution needs a service account token
// that only the apply can mint.
var ErrTokenAtApply = errors.New("the service account token is minted at apply: the deploy items are known after apply")

// TokenRecord is one recorded token.
type TokenRecord struct {
	Token   string    `json:"token"`
	Issued  time.Time `json:"issued"`
	Expires time.Time `json:"expires"`
}

// fresh reports whether r has more than half of its lifetime left at now.
func (r TokenRecord) fresh(now time.Time) bool {
	return r.Token != "" && r.Expires.After(r.Issued) && r.Expires.Sub(now) > r.Expires.Sub(r.Issued)/2
}

// usable reports whether r may still be handed out at apply: a plan that
// kept it (fresh then) must render the same kubeconfig a moment later,
// so apply reuses it down to a tenth of its lifetime.
func (r TokenRecord) usable(now time.Time) bool {
	return r.Token != "" && r.Expires.After(r.Issued) && r.Expires.Sub(now) > r.Expires.Sub(r.Issued)/10
}

// TokenBook is the ClusterAccess of deploy executions: it hands out
// recorded tokens and, when Mint is set (apply), mints missing ones
// through the TokenRequest API. Safe for concurrent renders.
type TokenBook struct {
	ClusterAccess
	// Mint lets the book send TokenRequests (apply); at plan it is false.
	Mint bool
	// Learn registers every token handed out as a secret.
	Learn func(values ...string)
	// Now is the clock; nil is time.Now.
	Now func() time.Time

	mu       sync.Mutex
	recorded map[string]TokenRecord
	used     map[string]TokenRecord
	pending  bool
}

// NewTokenBook returns a book holding the records of the last apply.
func NewTokenBook(clusters ClusterAccess, recorded map[string]TokenRecord, mint bool, learn func(values ...string)) *TokenBook {
	return &TokenBook{ClusterAccess: clusters, Mint: mint, Learn: learn, recorded: recorded, used: map[string]TokenRecord{}}
}

// Used are the records the resource keeps: those this render handed out
// and, at plan, every other recorded one that is still fresh — an
// installation that imports its siblings' exports is rendered only by the
// apply, which should find its token too. After an apply, records no
// render asked for are dropped.
func (b *TokenBook) Used() map[string]TokenRecord {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[string]TokenRecord, len(b.used))
	if !b.Mint {
		now := b.now()
		for k, v := range b.recorded {
			if v.fresh(now) {
				out[k] = v
			}
		}
	}
	for k, v := range b.used {
		out[k] = v
	}
	return out
}

func (b *TokenBook) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

// Pending reports whether a render asked for a token only apply can mint.
func (b *TokenBook) Pending() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pending
}

// token returns the token of service account namespace/name on the
// cluster of clients, from the record or minted.
func (b *TokenBook) token(ctx context.Context, clients *target.Clients, server, name, namespace string, seconds int64) (string, time.Time, error) {
	now := b.now()
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%s\x00%d", server, namespace, name, seconds)))
	key := hex.EncodeToString(sum[:16])
	b.mu.Lock()
	rec, ok := b.used[key]
	if !ok {
		rec, ok = b.recorded[key]
		ok = ok && (rec.fresh(now) || b.Mint && rec.usable(now))
	}
	if ok {
		b.used[key] = rec
		b.mu.Unlock()
		b.learn(rec.Token)
		return rec.Token, rec.Expires, nil
	}
	if !b.Mint {
		b.pending = true
		b.mu.Unlock()
		return "", time.Time{}, ErrTokenAtApply
	}
	b.mu.Unlock()
	token, expires, err := requestToken(ctx, clients, name, namespace, seconds)
	if err != nil {
		return "", time.Time{}, err
	}
	b.learn(token)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used[key] = TokenRecord{Token: token, Issued: now, Expires: expires}
	return token, expires, nil
}

func (b *TokenBook) learn(values ...string) {
	if b.Learn != nil {
		b.Learn(values...)
	}
}

type tokenBookKey struct{}

// WithTokenBook gives the deploy executions rendered under ctx the book:
// the plan and the apply of one resource each make their own, and ctx
// reaches every installation of the tree, also those the job renders
// only after their siblings.
func WithTokenBook(ctx context.Context, b *TokenBook) context.Context {
	return context.WithValue(ctx, tokenBookKey{}, b)
}

// DeployClusters is the ClusterAccess of deploy executions rendered under
// ctx: its token book, or nil (the cluster functions are then an error).
func DeployClusters(ctx context.Context) ClusterAccess {
	if b, ok := ctx.Value(tokenBookKey{}).(*TokenBook); ok && b != nil {
		return b
	}
	return nil
}

// TokensPending reports whether a deploy execution rendered under ctx
// asked for a token only the apply can mint.
func TokensPending(ctx context.Context) bool {
	b, ok := ctx.Value(tokenBookKey{}).(*TokenBook)
	return ok && b != nil && b.Pending()
}
