"""The command line (``mplp-models``): one module per subcommand job; the library imports nothing from here."""
