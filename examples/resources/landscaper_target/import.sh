# A target is imported by its name. Its credentials cannot be read back, so
# the next apply writes them from the configuration (an in-place update that
# deploys nothing).
terraform import landscaper_target.cluster cluster
