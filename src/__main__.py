from research.cli.main import main

main()
