"""Every metric family, one module or folder each; each registers its metrics in ``nlgmetrics.core.registry``."""
