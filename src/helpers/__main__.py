from helpers.cli import main

raise SystemExit(main())
