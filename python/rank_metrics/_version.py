"""The one version number: dbt_project.yml's, which the wheel's metadata also carries."""

from importlib import metadata

try:
    __version__ = metadata.version("rank-metrics")
except metadata.PackageNotFoundError:  # a checkout on sys.path, not installed
    import re

    from ._render import dbt_project_dir

    __version__ = re.search(r"^version:\s*['\"]?([^'\"\s]+)", (dbt_project_dir() / "dbt_project.yml")
                            .read_text(), re.MULTILINE).group(1)
