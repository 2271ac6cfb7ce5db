package shared

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// TokensKey is the private-state key of the service account tokens deploy
// executions' getServiceAccountKubeconfig got (template.TokenBook): kept
// like the engine snapshot, compressed, and never in an attribute.
const TokensKey = "service_account_tokens"

// maxTokensBytes bounds what the record may expand to.
const maxTokensBytes = 4 << 20

// WithTokenBook returns ctx with the token book of one plan (mint false)
// or apply (mint true) of an installation, holding the tokens p recorded,
// for every deploy execution rendered under it. A damaged record is
// dropped: the apply then mints new tokens.
func (d *ProviderData) WithTokenBook(ctx context.Context, p PrivateGetter, mint bool) (context.Context, *template.TokenBook) {
	recorded := map[string]template.TokenRecord{}
	if raw, diags := p.GetKey(ctx, TokensKey); !diags.HasError() && len(raw) > 0 {
		if b, err := UnpackSnapshot(raw, maxTokensBytes); err == nil {
			if json.Unmarshal(b, &recorded) != nil {
				recorded = map[string]template.TokenRecord{}
			}
		}
	}
	book := template.NewTokenBook(d.Pool, recorded, mint, d.Security.Secrets.Add)
	for _, r := range recorded {
		d.Security.Secrets.Add(r.Token)
	}
	return template.WithTokenBook(ctx, book), book
}

// SetTokens records the tokens book handed out in p; none clears the key.
func (s *Security) SetTokens(ctx context.Context, p PrivateSetter, book *template.TokenBook) diag.Diagnostics {
	used := book.Used()
	if len(used) == 0 {
		return s.SetPrivate(ctx, p, TokensKey, nil, true) // removes the key
	}
	b, err := json.Marshal(used)
	if err != nil {
		var diags diag.Diagnostics
		AddError(&diags, s, "Cannot Record Private State", fmt.Errorf("%s: %w", TokensKey, err))
		return diags
	}
	return s.SetPrivate(ctx, p, TokensKey, b, true)
}

// TokensPending reports whether a deploy execution rendered under ctx
// asked for a token only the apply can mint.
func TokensPending(ctx context.Context) bool { return template.TokensPending(ctx) }
