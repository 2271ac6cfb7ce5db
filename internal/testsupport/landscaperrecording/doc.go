// Package landscaperrecording holds what Landscaper's own controllers
// wrote into a cluster for landscapes of this project's, and puts it into
// a cluster again, so that the migration from Landscaper is tested against
// objects a real Landscaper made (landscaperfixture only imitates them;
// DIFFERENCES.md says where the two differ).
//
// A Recording (testdata/landscaper-<Version>/<landscape>-<scenario>/,
// embedded; Recordings, Load) is every Landscaper object of the host
// namespace with its status, the Secrets there (the user's, the deploy
// items' exports) and every object of the target namespace no other object
// owns (what the deployers created, Helm's release records). The
// kubeconfig is replaced by KubeconfigPlaceholder. tools/landscaper-record
// makes them (README.md there says how); the landscapes' inputs are in
// testdata/landscapes (BuildLandscape).
//
//	rec := landscaperrecording.MustLoad(t, "harbor-installed")
//	r := landscaperrecording.Install(t, localcluster.RESTConfig(t), rec, landscaperrecording.ReplayOptions{
//		HostNamespace: host, TargetNamespace: target, Kubeconfig: localcluster.Kubeconfig(t), Registry: reg.Host()})
//	… migrate …
//	r.Advance(ctx, landscaperrecording.MustLoad(t, "harbor-reconciled")) // what Landscaper did next
//
// Replay renames every string of the recording — plain fields, Secret
// data, Helm release records, the gzipped deploy item templates of
// Executions — from the recorded namespaces, registry and placeholder to
// the new ones, creates the objects owners first with their status, and
// gives every reference to a recorded UID (owner references, the deployers'
// provider status) the replayed object's UID. Rewrite does the renaming
// alone, for tests with a fake client.
package landscaperrecording
