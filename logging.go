package main

import "os"

// unreadLogLevels are the SDK's log level variables, each set to OFF by
// quietUnreadLogs (TF_LOG_PROVIDER_LANDSCAPER is this provider's own
// logger, named after the registry address's type).
var unreadLogLevels = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_LANDSCAPER"}

// quietUnreadLogs turns the plugin's logging off when the CLI that started
// it shows none of it. Terraform and OpenTofu show a provider's log only
// with TF_LOG or TF_LOG_PROVIDER set; without, they still read, parse and
// then drop every JSON line the plugin writes to stderr, and the SDK logs
// at TRACE by default. The framework writes a line per attribute value it
// walks (about 15,000 per no-op plan of 1,000 deploy items), so that
// formatting and parsing was a large share of both processes' CPU
// (tools/bench/RESULTS.md). A level the user set is kept, and a debug run
// (-debug) keeps its log, which is printed directly.
func quietUnreadLogs(debug bool) {
	if debug || os.Getenv("TF_LOG") != "" || os.Getenv("TF_LOG_PROVIDER") != "" {
		return
	}
	for _, name := range unreadLogLevels {
		if _, set := os.LookupEnv(name); !set {
			_ = os.Setenv(name, "OFF")
		}
	}
}
