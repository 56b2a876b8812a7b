__version__: str

def version() -> str:
    """The version of the daylit library this module was built from."""
