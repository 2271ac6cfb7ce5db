// Package api holds the Landscaper object shapes that blueprints, the engine
// and the deployers exchange: targets, deploy item and subinstallation
// templates, phases and durations. It has no behaviour beyond (de)coding and
// imports nothing from this project, so every other package may import it.
package api
