package deployer

// Wrap returns a registry with the same types whose deployers are wrap's
// results, so a caller can put something around every deployer call of
// one job (the installation inventory) without changing the shared one.
func (r *Registry) Wrap(wrap func(itemType string, d Deployer) Deployer) *Registry {
	out := &Registry{byType: make(map[string]Deployer, len(r.byType)), declared: r.declared, unknownHint: r.unknownHint}
	for t, d := range r.byType {
		out.byType[t] = wrap(t, d)
	}
	return out
}
