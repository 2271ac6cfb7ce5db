package ocireg

import (
	"context"
	"errors"
	"fmt"

	"oras.land/oras-go/v2/registry"
)

// MaxTags bounds the tags Tags reads of one repository: the registry is
// outside the provider's control, and a plan asks for the list.
const MaxTags = 10000

var errTooManyTags = errors.New("more tags than the limit")

// Tags lists the tags of repository ("host/path") with c's credentials,
// at most MaxTags; never from the cache (a tag list is asked when a plan
// must know what the registry offers now).
func (c *Client) Tags(ctx context.Context, repository string) ([]string, error) {
	repo, err := c.open(repository)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", repository, err)
	}
	lister, ok := repo.(registry.TagLister)
	if !ok {
		return nil, fmt.Errorf("%s: the repository lists no tags", repository)
	}
	var out []string
	err = lister.Tags(ctx, "", func(tags []string) error {
		out = append(out, tags...)
		if len(out) > MaxTags {
			return errTooManyTags
		}
		return nil
	})
	if errors.Is(err, errTooManyTags) {
		return nil, fmt.Errorf("%s: %w (%d)", repository, err, MaxTags)
	}
	if err != nil {
		return nil, describe(repository+" tags", err)
	}
	return out, nil
}
