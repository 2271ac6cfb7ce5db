// Command checkrelease checks a goreleaser dist folder against the Terraform
// Registry's rules for provider releases
// (https://developer.hashicorp.com/terraform/registry/providers/publishing):
// archive names, the binary inside each, the registry manifest, the
// SHA256SUMS file and its signature's form. It prints every problem and
// exits 1 if there is one.
//
//	go run ./tools/release/checkrelease -config .goreleaser.yml -dist dist
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	config := flag.String("config", ".goreleaser.yml", "goreleaser configuration the release was built with (names the targets)")
	dist := flag.String("dist", "dist", "goreleaser's output folder")
	manifest := flag.String("manifest", "terraform-registry-manifest.json", "the checkout's registry manifest")
	flag.Parse()
	if err := run(*config, *dist, *manifest); err != nil {
		fmt.Fprintln(os.Stderr, "checkrelease:", err)
		os.Exit(1)
	}
}

func run(configPath, dist, manifestPath string) error {
	raw, err := os.ReadFile(configPath)
	if err != nil {
		return err
	}
	targets, err := configTargets(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", configPath, err)
	}
	manifest, err := os.ReadFile(manifestPath)
	if err != nil {
		return err
	}
	rel, err := readRelease(dist)
	if err != nil {
		return err
	}
	errs := rel.check(targets, manifest)
	for _, e := range errs {
		fmt.Fprintln(os.Stderr, "checkrelease:", e)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%d problems in %s", len(errs), dist)
	}
	fmt.Printf("checkrelease: %s %s: %d archives, manifest, SHA256SUMS and its signature as the Registry expects\n",
		rel.project, rel.version, len(targets))
	return nil
}
