"""legacies.cli: the `legacies` console command (typer + rich). Thin: each command
calls a service and renders its result."""
