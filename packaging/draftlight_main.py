"""The bundle's entry script (PyInstaller runs this file, not a console-script wrapper).

freeze_support() must come first: the engine process is this same executable started again
by multiprocessing's spawn, and it must become the engine, not a second window. PyInstaller's
runtime hook makes it work for spawn on Linux and macOS too, not only on Windows.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from app.shell.main import main

    sys.exit(main())
