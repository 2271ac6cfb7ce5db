package api

// InstallationPhase is the phase of an installation (ARCHITECTURE.md, "Installation flow").
type InstallationPhase string

// Installation phases: the install flow, then the delete flow.
const (
	InstallationPhaseInit           InstallationPhase = "Init"
	InstallationPhaseObjectsCreated InstallationPhase = "ObjectsCreated"
	InstallationPhaseProgressing    InstallationPhase = "Progressing"
	InstallationPhaseCompleting     InstallationPhase = "Completing"
	InstallationPhaseSucceeded      InstallationPhase = "Succeeded"
	InstallationPhaseFailed         InstallationPhase = "Failed"

	InstallationPhaseInitDelete    InstallationPhase = "InitDelete"
	InstallationPhaseTriggerDelete InstallationPhase = "TriggerDelete"
	InstallationPhaseDeleting      InstallationPhase = "Deleting"
	InstallationPhaseDeleteFailed  InstallationPhase = "DeleteFailed"
)

// ExecutionPhase is the phase of an execution (ARCHITECTURE.md, "Execution flow").
type ExecutionPhase string

// Execution phases.
const (
	ExecutionPhaseInit         ExecutionPhase = "Init"
	ExecutionPhaseProgressing  ExecutionPhase = "Progressing"
	ExecutionPhaseCompleting   ExecutionPhase = "Completing"
	ExecutionPhaseSucceeded    ExecutionPhase = "Succeeded"
	ExecutionPhaseFailed       ExecutionPhase = "Failed"
	ExecutionPhaseInitDelete   ExecutionPhase = "InitDelete"
	ExecutionPhaseDeleting     ExecutionPhase = "Deleting"
	ExecutionPhaseDeleteFailed ExecutionPhase = "DeleteFailed"
)

// DeployItemPhase is the phase of a deploy item (ARCHITECTURE.md, "Execution flow").
type DeployItemPhase string

// Deploy item phases.
const (
	DeployItemPhaseInit         DeployItemPhase = "Init"
	DeployItemPhaseProgressing  DeployItemPhase = "Progressing"
	DeployItemPhaseDeleting     DeployItemPhase = "Deleting"
	DeployItemPhaseSucceeded    DeployItemPhase = "Succeeded"
	DeployItemPhaseFailed       DeployItemPhase = "Failed"
	DeployItemPhaseDeleteFailed DeployItemPhase = "DeleteFailed"
)
