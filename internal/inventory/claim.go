package inventory

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// What an inventory Secret holds is a claim: whoever may write Secrets in
// its namespace could have written it. A deploy item's provider status
// or configuration read from one may therefore never reach a deployer as
// if Terraform state had recorded it, where it would grant the exceptions
// only state may grant (deployer.Item.Rebuilt: an object adopted from
// Landscaper, a Helm release without labels, deleteAllResources).
//
// The functions of this file are the only way such data enters a snapshot
// item or a deployer call in this package and in package instance: each
// marks what it fills as rebuilt. TestClaims_OnlyThroughClaimFunctions
// walks both packages' source and fails on any other write of those
// fields, and on any other decoding of a snapshot.

// Claim puts a provider status and configuration of which a cluster's
// record is the source into it and marks it rebuilt.
func Claim(it *snapshot.DeployItem, status, config json.RawMessage) {
	it.ProviderStatus, it.Config, it.Rebuilt = status, config, true
}

// DecodeClaimed decodes a snapshot read from a cluster (what a parent
// keeps, Recorder.Keep) with every deploy item marked rebuilt, whatever
// the bytes say.
func DecodeClaimed(b []byte) (*snapshot.Snapshot, error) {
	s, err := snapshot.Unmarshal(b)
	if err != nil {
		return nil, err
	}
	ClaimAll(s)
	return s, nil
}

// ClaimAll marks every deploy item of s rebuilt: for a snapshot assembled
// from what clusters hold.
func ClaimAll(s *snapshot.Snapshot) {
	if s.Empty() {
		return
	}
	for _, it := range s.DeployItems() {
		it.Rebuilt = true
	}
}

// claimCall gives a deployer call the provider status a parent records
// for it, marked rebuilt.
func claimCall(item *deployer.Item, status json.RawMessage) {
	item.ProviderStatus, item.Rebuilt = status, true
}
