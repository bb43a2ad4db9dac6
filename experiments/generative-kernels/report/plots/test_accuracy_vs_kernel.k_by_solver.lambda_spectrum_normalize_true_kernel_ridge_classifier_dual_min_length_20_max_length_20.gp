# kexp plot; run `gnuplot test_accuracy_vs_kernel.k_by_solver.lambda_spectrum_normalize_true_kernel_ridge_classifier_dual_min_length_20_max_length_20.gp` here to redraw test_accuracy_vs_kernel.k_by_solver.lambda_spectrum_normalize_true_kernel_ridge_classifier_dual_min_length_20_max_length_20.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.k_by_solver.lambda_spectrum_normalize_true_kernel_ridge_classifier_dual_min_length_20_max_length_20.svg'
set title 'spectrum normalize=true · kernel_ridge_classifier (dual) · min_length=20 max_length=20: test accuracy against k, a line per λ'
set xlabel 'k (kernel.k)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0218 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '2' 2, '3' 3, '4' 4)
$line0 << EOD
1 0.5833333333333334 0.5282576278604724 0.6384090388061944
2 0.5833333333333334 0.5429188144900596 0.6237478521766071
3 0.5533333333333333 0.5129188144900596 0.5937478521766071
4 0.5166666666666667 0.4523756615933804 0.580957671739953
EOD
$line1 << EOD
1 0.5833333333333334 0.5282576278604724 0.6384090388061944
2 0.5833333333333334 0.5417000133440107 0.624966653322656
3 0.5533333333333333 0.5129188144900596 0.5937478521766071
4 0.5233333333333333 0.45526474047779286 0.5914019261888738
EOD
$line2 << EOD
1 0.5833333333333334 0.5282576278604724 0.6384090388061944
2 0.5833333333333334 0.5417000133440107 0.624966653322656
3 0.5533333333333333 0.5040045047101709 0.6026621619564958
4 0.5433333333333333 0.4431668053245552 0.6434998613421115
EOD
$line3 << EOD
1 0.5833333333333334 0.5282576278604724 0.6384090388061944
2 0.5833333333333334 0.5429188144900596 0.6237478521766071
3 0.5666666666666668 0.4902904050840694 0.6430429282492641
4 0.5466666666666667 0.47094788872266313 0.6223854446106704
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'λ = 0.001', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'λ = 0.01', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'λ = 0.1', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'λ = 1'
