"""The machinery every metric shares: validated inputs, signatures, the Metric / MetricState / Result
shapes and the registry that names every metric (see README.md in this folder)."""
