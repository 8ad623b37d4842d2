from bncbench.cli import main

main()
