package deployer

// Declared is what the deployer of a type declares beyond the Deployer
// contract. Callers ask the Registry (Registry.Declared, Previewer,
// Adopter, UsingCharts) instead of comparing type strings or asserting a
// deployer's concrete type; the registry answers for the deployer as
// registered, also when a job wrapped it (Wrap).
type Declared struct {
	// ReadsFiles: its calls may read the blueprint's files (Item.Files,
	// a Helm chart in the blueprint), so a drift check of its items needs
	// the blueprint loaded. True for a deployer that does not say
	// (FileReader) and for an unknown type.
	ReadsFiles bool
	// Previews: it shows an item's objects without a cluster (Previewer).
	Previews bool
	// Adopts: it takes over what Landscaper's deployer deployed (Adopter).
	Adopts bool
	// UsesCharts: it reads Helm charts and can be given one
	// installation's access to them (ChartUser).
	UsesCharts bool
}

// FileReader is a Deployer that says whether its calls read Item.Files.
type FileReader interface {
	ReadsFiles() bool
}

// ChartUser is a Deployer that reads Helm charts. UsingCharts returns a
// copy of it that reads them through charts — one installation's access
// (its Landscaper Context's credentials), of the type the deployer's
// package defines for it (helm.Resources) — sharing everything else; a
// charts of another type leaves it as it is.
type ChartUser interface {
	UsingCharts(charts any) Deployer
}

// Declared returns what the registered deployer of itemType declares.
func (r *Registry) Declared(itemType string) Declared {
	d, ok := r.declared[itemType]
	if !ok {
		return Declared{ReadsFiles: true}
	}
	out := Declared{ReadsFiles: true}
	if f, ok := d.(FileReader); ok {
		out.ReadsFiles = f.ReadsFiles()
	}
	_, out.Previews = d.(Previewer)
	_, out.Adopts = d.(Adopter)
	_, out.UsesCharts = d.(ChartUser)
	return out
}

// Adopter returns the deployer of itemType when it is an Adopter, as
// Previewer does; false for an unknown type or a deployer that cannot
// adopt.
func (r *Registry) Adopter(itemType string) (Adopter, bool) {
	a, ok := r.byType[itemType].(Adopter)
	return a, ok
}

// UsingCharts returns a registry whose chart users (ChartUser) read
// charts through charts; the other deployers are those of r.
func (r *Registry) UsingCharts(charts any) *Registry {
	return r.Wrap(func(_ string, d Deployer) Deployer {
		if c, ok := d.(ChartUser); ok {
			return c.UsingCharts(charts)
		}
		return d
	})
}
