# kexp plot; run `gnuplot test_rmse_vs_kernel.sigma.gp` here to redraw test_rmse_vs_kernel.sigma.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'test_rmse_vs_kernel.sigma.svg'
set title 'test_rmse against kernel.sigma (lowest over the other swept parameters)'
set xlabel 'kernel.sigma'
set ylabel 'test_rmse'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
$line0 << EOD
0.025118864315095794 0.43494027472517993
0.03548133892335753 0.4196872209678658
0.05011872336272722 0.4139198136984948
0.07079457843841377 0.40477545285192545
0.1 0.3880028966189309
0.1412537544622754 0.34855020588453045
0.19952623149688792 0.24254813744207654
0.28183829312644537 0.12398920018991634
0.39810717055349715 0.0861404542157799
0.5623413251903491 0.21002671390884126
0.7943282347242814 0.2711269533982452
1.122018454301963 0.3308692173388876
1.5848931924611136 0.5812659300275392
EOD
plot $line0 using 1:2 with linespoints title 'gaussian + gp_regression (dual)'
