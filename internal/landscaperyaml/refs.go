package landscaperyaml

// Ref names a DataObject or Target an Installation refers to, by the name
// Landscaper derives from the reference (objectName).
type Ref struct {
	Kind, Name string
}

// Missing returns the DataObjects and Targets the one Installation of
// manifest refers to (data imports' dataRef, target imports' target,
// targets and targetMap) that objects does not hold for namespace: the
// caller may read them from the host cluster, as Landscaper does, and
// add them with With. Unreadable manifests return nil; Convert reports
// them.
func Missing(manifest, objects *Set, namespace string) []Ref {
	insts := manifest.Documents(KindInstallation)
	if len(insts) != 1 {
		return nil
	}
	var inst installation
	if insts[0].decode(&inst) != nil {
		return nil
	}
	if objects == nil {
		objects = &Set{}
	}
	var out []Ref
	seen := map[Ref]bool{}
	add := func(kind, ref string) {
		r := Ref{Kind: kind, Name: objectName(ref)}
		if ref == "" || seen[r] {
			return
		}
		seen[r] = true
		if _, ok := objects.lookup(kind, r.Name, namespace); !ok {
			out = append(out, r)
		}
	}
	for _, im := range inst.Spec.Imports.Data {
		add(KindDataObject, im.DataRef)
	}
	for _, im := range inst.Spec.Imports.Targets {
		add(KindTarget, im.Target)
		for _, t := range im.Targets {
			add(KindTarget, t)
		}
		for _, t := range im.TargetMap {
			add(KindTarget, t)
		}
	}
	return out
}

// With returns the objects of s followed by those of more. A document
// of more with the kind, name and namespace of one in s is an error, as
// in one stream.
func (s *Set) With(more *Set) (*Set, error) {
	out := &Set{}
	if s != nil {
		out.docs = append(out.docs, s.docs...)
	}
	if more != nil {
		out.docs = append(out.docs, more.docs...)
	}
	return out, out.checkUnique()
}
