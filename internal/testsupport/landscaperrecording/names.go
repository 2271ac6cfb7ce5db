package landscaperrecording

import "github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"

// APIVersion is Landscaper's group version.
const APIVersion = landscaperstate.APIVersion
